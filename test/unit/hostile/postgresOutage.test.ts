// Findings 4 and 7 of the third attack review: a dropped database connection crashed `hearth index`
// and `hearth gateway` (an unhandled 'error' event of a checked-out pg client); a database that
// stalled after authenticating hung them for ever; one that announced a 1 GB row took the process
// to 920 MB. Here a loopback proxy in front of a real pglite-server does each of those to a live
// index: only the operation in flight fails, with a typed error; nothing crashes or hangs; the
// index resumes once the database behaves.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { pgIndex, usePgServers } from '../store/pgHelpers';
import { startPgProxy, type PgProxy } from '../store/pgProxy';
import { createPool, SESSION_TIMEOUTS } from '../../../src/core/index/store/postgresConnection';
import { MAX_MESSAGE_BYTES } from '../../../src/core/index/store/postgresClient';
import { silentLogger } from '../../../src/core/host';
import { indexSemanticSearch } from '../../../src/core/index/semanticSearchFn';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';

const NOTES: Record<string, string> = {
  'garden.md': '# Garden\n\nTomatoes need sun and water every morning.\n',
  'kitchen.md': '# Kitchen\n\nBread rises overnight in the cold oven.\n',
  'rome.md': '# Rome\n\nThe Colosseum at dawn, then espresso near the Pantheon.\n',
};

const { server, embeddings } = usePgServers();
/** Whatever escaped as an uncaught exception (a crash of `hearth index` or the gateway). */
const escaped: unknown[] = [];
const onEscape = (error: unknown) => escaped.push(error);
before(() => process.on('uncaughtException', onEscape));
after(() => process.off('uncaughtException', onEscape));

async function failure(work: Promise<unknown>): Promise<Error & { code?: string }> {
  return work.then(
    () => assert.fail('the operation should have failed'),
    (error: unknown) => error as Error & { code?: string },
  );
}

async function withProxy(query: string, body: (proxy: PgProxy, kiln: string) => Promise<void>): Promise<void> {
  const proxy = await startPgProxy(server.port, query);
  const kiln = makeKiln(NOTES);
  try {
    await body(proxy, kiln);
  } finally {
    await proxy.stop();
    removeKiln(kiln);
  }
  assert.deepEqual(escaped.map(String), [], 'nothing escaped as an uncaught exception');
}

test('a connection dropped mid-write fails that run with "unreachable, retrying"; no crash; the next run resumes', { timeout: 120_000 }, async () => {
  await withProxy('', async (proxy, kiln) => {
    const index = pgIndex(kiln, proxy.url, embeddings.url, { kiln_id: 'outage/drop' });
    try {
      proxy.mode = { kind: 'drop', when: /INSERT INTO hearth_embeddings/ };
      const dropped = await failure(index.update());
      assert.equal(dropped.code, 'index.unreachable', dropped.message);
      assert.match(dropped.message, /127\.0\.0\.1:\d+\/postgres is unreachable .*retrying/);
      // The database is down for a while: each request fails the same way, at once.
      proxy.mode = { kind: 'down' };
      const down = await failure(index.update());
      assert.equal(down.code, 'index.unreachable', down.message);
      proxy.mode = { kind: 'pass' };
      const resumed = await index.update();
      assert.equal(resumed.notes, 3);
      assert.equal((await index.search('Colosseum espresso', { mode: 'hybrid', limit: 1 }))[0]?.path, 'rome.md');
    } finally {
      await index.dispose();
    }
  });
});

test('a database that stops answering after authenticating: the query timeout ends the run with a clear error, no hang', { timeout: 120_000 }, async () => {
  await withProxy('query_timeout=1500', async (proxy, kiln) => {
    const index = pgIndex(kiln, proxy.url, embeddings.url, { kiln_id: 'outage/stall' });
    try {
      await index.update();
      proxy.mode = { kind: 'stall', when: /FROM hearth_notes n WHERE n\.kiln/ };
      const stalled = await failure(index.update());
      assert.equal(stalled.code, 'index.unreachable', stalled.message);
      assert.match(stalled.message, /no answer within the query timeout/);
      proxy.mode = { kind: 'pass' };
      assert.equal((await index.update()).unchanged, 3, 'resumes on a fresh connection');
    } finally {
      await index.dispose();
    }
  });
});

test('a server announcing a 1 GB row: the connection is closed at its header (bounded memory), a typed error; then it resumes', { timeout: 120_000 }, async () => {
  // query_timeout keeps a run without the guard from waiting for the whole gigabyte.
  await withProxy('query_timeout=20000', async (proxy, kiln) => {
    const index = pgIndex(kiln, proxy.url, embeddings.url, { kiln_id: 'outage/huge' });
    try {
      await index.update();
      proxy.mode = { kind: 'huge', when: /FROM hearth_notes n WHERE n\.kiln/, announce: 0x40000000, sendAtMost: 256 * 1024 * 1024 };
      const huge = await failure(index.update());
      assert.equal(huge.code, 'index.message_too_large', huge.message);
      assert.match(huge.message, /1024 MiB, more than the 64 MiB/);
      assert.ok(proxy.hugeSent < MAX_MESSAGE_BYTES / 2, `the client stopped reading after ${proxy.hugeSent} bytes`);
      proxy.mode = { kind: 'pass' };
      assert.equal((await index.update()).unchanged, 3);
    } finally {
      await index.dispose();
    }
  });
});

test('every connection asks the server for statement, lock and idle-in-transaction timeouts, has a query timeout and TCP keep-alive; the URL overrides', { timeout: 60_000 }, async () => {
  const pool = createPool(`${server.url}?lock_timeout=1234`, () => {});
  try {
    const options = pool.options as unknown as Record<string, unknown>;
    assert.equal(options.keepAlive, true);
    assert.equal(options.query_timeout, SESSION_TIMEOUTS.query_timeout);
    assert.ok(SESSION_TIMEOUTS.query_timeout > SESSION_TIMEOUTS.statement_timeout, "the server's clearer error comes first");
    const client = await pool.connect();
    try {
      const shown = async (name: string) => (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
      assert.equal(await shown('statement_timeout'), '1min');
      assert.equal(await shown('idle_in_transaction_session_timeout'), '1min');
      assert.equal(await shown('lock_timeout'), '1234ms', "the URL's value wins");
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
});

test("the gateway's kiln tools: a drop fails only the semantic_search in flight; read_note answers; semantic_search answers again", { timeout: 120_000 }, async () => {
  await withProxy('', async (proxy, kiln) => {
    const index = pgIndex(kiln, proxy.url, embeddings.url, { kiln_id: 'outage/tools' });
    try {
      await index.update();
      const tools = createKilnTools({ kilnRoot: kiln, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, semanticSearch: indexSemanticSearch(() => index) });
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await tools.find((t) => t.name === name)!.call(args);
        return { isError: result.isError === true, text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('') };
      };
      proxy.mode = { kind: 'drop', when: /<=>/ };
      const during = await call('semantic_search', { query: 'Colosseum espresso' });
      assert.equal(during.isError, true, during.text);
      assert.match(during.text, /unreachable.*retrying/);
      const read = await call('read_note', { path: 'rome.md' });
      assert.equal(read.isError, false, read.text);
      assert.match(read.text, /Colosseum/);
      proxy.mode = { kind: 'pass' };
      const back = await call('semantic_search', { query: 'Colosseum espresso' });
      assert.equal(back.isError, false, back.text);
      assert.match(back.text, /rome\.md/);
    } finally {
      await index.dispose();
    }
  });
});
