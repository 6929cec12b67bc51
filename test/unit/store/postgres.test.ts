import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { SCHEMA_VERSION } from '../../../src/core/index/store/postgresSchema';
import { pgIndex, startPgServer, usePgServers } from './pgHelpers';

const NOTES: Record<string, string> = {
  'garden.md': '# Garden\n\nTomatoes need sun and water every morning.\n\n## Pests\n\nAphids on the roses; spray with soap.\n',
  'kitchen.md': '---\ntags: [food]\n---\n# Kitchen\n\nBread rises overnight in the cold oven.\n',
  'travel/rome.md': '# Rome\n\nThe Colosseum at dawn, then espresso near the Pantheon.\n',
};

const { server, embeddings } = usePgServers();

test('two members (different folders, same notes) on one database: the second embeds nothing, both search', async () => {
  const [a, b] = [makeKiln(NOTES), makeKiln(NOTES)];
  const [first, second] = [pgIndex(a, server.url, embeddings.url), pgIndex(b, server.url, embeddings.url)];
  try {
    const before = embeddings.texts();
    const one = await first.update();
    const firstCalls = embeddings.texts() - before;
    assert.ok(one.chunks >= 4, `chunks: ${one.chunks}`);
    assert.ok(firstCalls >= one.chunks, 'the first member embeds every chunk');
    const mark = embeddings.texts();
    const two = await second.update();
    assert.equal(embeddings.texts() - mark, 0, 'the second member embeds nothing (not even a dimension probe)');
    assert.equal(two.chunks, one.chunks);
    assert.equal(two.unchanged, 3, 'same kiln id: the notes are already indexed for the team');
    // Another kiln (its own namespace) with the same text: its chunks are its own, the vectors shared.
    const c = makeKiln(NOTES);
    const other = pgIndex(c, server.url, embeddings.url, { kiln_id: 'someone/else' });
    try {
      const three = await other.update();
      assert.equal(embeddings.texts() - mark, 0, 'a chunk any member embedded with this model is never embedded again');
      assert.equal(three.reused, one.chunks);
      assert.equal(three.chunks, one.chunks);
      assert.equal((await other.search('Colosseum espresso', { mode: 'hybrid', limit: 1 }))[0]?.path, 'travel/rome.md');
    } finally {
      await other.dispose();
      removeKiln(c);
    }
    for (const index of [first, second]) {
      const semantic = await index.search('Aphids on the roses', { mode: 'semantic', limit: 3 });
      assert.ok(semantic.length > 0 && semantic.every((hit) => hit.path in NOTES), JSON.stringify(semantic));
      assert.equal((await index.search('Aphids roses soap', { mode: 'hybrid', limit: 1 }))[0]?.path, 'garden.md');
    }
  } finally {
    await first.dispose();
    await second.dispose();
    removeKiln(a);
    removeKiln(b);
  }
});

test('--copy-to both ways re-embeds nothing: flat → postgres, then postgres → flat', async () => {
  const kiln = makeKiln({ ...NOTES, 'extra.md': '# Extra\n\nA note only this kiln has, about lighthouses.\n' });
  const flat = pgIndex(kiln, server.url, embeddings.url, { store: 'flat', kiln_id: 'copy/test' });
  try {
    const built = await flat.update();
    const mark = embeddings.texts();
    const toPg = await flat.copyTo('postgres');
    assert.equal(embeddings.texts() - mark, 0, 'flat → postgres embeds nothing');
    assert.equal(toPg.reembedded, 0);
    assert.equal(toPg.chunks, built.chunks);
    assert.equal(toPg.vectorIndex, 'hnsw_vector');
    const pgSide = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'copy/test' });
    try {
      assert.equal((await pgSide.search('lighthouses', { mode: 'hybrid', limit: 1 }))[0]?.path, 'extra.md');
      // Back: a fresh flat index (cleared) filled from the database without the embedder.
      await flat.clear();
      const back = embeddings.texts();
      const toFlat = await pgSide.copyTo('flat');
      assert.equal(embeddings.texts() - back, 0, 'postgres → flat embeds nothing');
      assert.equal(toFlat.reembedded, 0);
      assert.equal(toFlat.chunks, built.chunks);
    } finally {
      await pgSide.dispose();
    }
  } finally {
    await flat.dispose();
    removeKiln(kiln);
  }
});

test('a schema from a newer Hearth is refused with a clear message and left as it is', async () => {
  const kiln = makeKiln(NOTES);
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'newer/schema' });
  try {
    await index.update();
    await index.dispose();
    await client.query('UPDATE hearth_schema SET version = 99');
    const again = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'newer/schema' });
    await assert.rejects(again.update(), (error: unknown) => (error as { code?: string }).code === 'index.schema_too_new' && /version 99/.test((error as Error).message) && /Update Hearth/.test((error as Error).message));
    await again.dispose();
    assert.equal((await client.query('SELECT version FROM hearth_schema')).rows[0].version, 99, 'not altered');
  } finally {
    await client.query('UPDATE hearth_schema SET version = $1', [SCHEMA_VERSION]);
    await client.end();
    await index.dispose();
    removeKiln(kiln);
  }
});

test('database stopped mid-session: a clear error naming the host (never the password), then recovery on the same index', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-pgdata-'));
  let own = await startPgServer({ dataDir });
  const kiln = makeKiln(NOTES);
  const url = own.url.replace('postgres@', 'postgres:Sup3rSecretPw@');
  const index = pgIndex(kiln, url, embeddings.url);
  try {
    await index.update();
    assert.ok((await index.search('Colosseum espresso', { limit: 1 })).length > 0);
    await own.stop();
    await assert.rejects(index.search('Colosseum espresso', { mode: 'semantic', limit: 1 }), (error: unknown) => {
      const message = (error as Error).message;
      return (error as { code?: string }).code === 'index.unreachable' && message.includes(`127.0.0.1:${own.port}`) && !message.includes('Sup3rSecretPw');
    });
    await assert.rejects(index.update(), (error: unknown) => (error as { code?: string }).code === 'index.unreachable');
    // Text and property search fall back to the notes on disk while the database is down.
    assert.equal((await index.search('Colosseum', { mode: 'text', limit: 3 }))[0]?.path, 'travel/rome.md');
    assert.deepEqual((await index.search('tags=food', { mode: 'property', limit: 3 })).map((h) => h.path), ['kitchen.md']);
    own = await startPgServer({ port: own.port, dataDir });
    const hits = await index.search('Colosseum espresso', { mode: 'semantic', limit: 3 });
    assert.ok(hits.length > 0, 'reconnects when the database is back');
    const report = await index.update();
    assert.equal(report.unchanged, 3);
  } finally {
    await index.dispose();
    await own.stop();
    removeKiln(kiln);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('hostile notes: NUL escapes in frontmatter, SQL in titles and paths, odd headings are stored as data, never break the run', async () => {
  const kiln = makeKiln({
    "it's \"quoted\" ü.md": "# '); DROP TABLE hearth_notes; --\n\nRobert'); DELETE FROM hearth_chunks; -- was here.\n",
    'nul.md': '---\ntitle: "a\\0b"\ntags: ["x\\0y"]\nnested: { "k": "v\\0w" }\n---\n# Nul\n\nText after a NUL escape in the frontmatter.\n',
    'deep.md': `# ${'#'.repeat(3)} \u001f heading \u2028 sep\n\n${'word '.repeat(2000)}\n`,
  });
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: "hostile';--" });
  try {
    const report = await index.update();
    assert.equal(report.notes, 3, JSON.stringify(report.problems));
    assert.deepEqual(await brokenIds(), []);
    const hits = await index.search('Robert DELETE', { mode: 'hybrid', limit: 3 });
    assert.equal(hits[0]?.path, "it's \"quoted\" ü.md");
    const again = await index.update();
    assert.equal(again.unchanged, 3, 'stored as written: unchanged on the next run');
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

async function brokenIds(): Promise<string[]> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    const tables = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('hearth_notes', 'hearth_chunks')");
    assert.equal(tables.rows[0].n, 2);
    const rows = await client.query('SELECT kiln, path FROM hearth_chunks GROUP BY kiln, path HAVING count(*) <> max(ordinal) + 1');
    return rows.rows.map((r) => `${r.kiln}:${r.path}`);
  } finally {
    await client.end();
  }
}
