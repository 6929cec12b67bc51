// QueryEmbeddingWorker when its thread misbehaves (given through the constructor's `start`): it
// dies before the query is asked (a broken install: the embed used to wait forever, and the CLI
// then ended silently with nothing printed), exits or throws mid-query, or answers something that
// is not a reply. Each is embedding.worker_failed, promptly, with no secret in its text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { EmbeddingError } from '../../../src/core/index/embedders/embedder';
import { QueryEmbeddingWorker } from '../../../src/core/index/embedders/queryEmbedding';
import type { RemoteEmbedderSpec } from '../../../src/core/index/embedders/createEmbedder';
import { Redactor } from '../../../src/core/logging/redactor';
import { settlesWithin } from '../net/scriptedHttp';

const SECRET = 'sk-proj-thisIsTheUsersKey0123456789';
const SPEC: RemoteEmbedderSpec = { kind: 'openai', providerType: 'cloud_b', model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: SECRET };
const ON_QUERY = (body: string) => `require('node:worker_threads').parentPort.once('message', () => { ${body} });`;

function redactor(): Redactor {
  const r = new Redactor();
  r.add(SECRET);
  return r;
}

/** A QueryEmbeddingWorker over an eval'd thread, and that thread (to wait on it). */
function workerRunning(code: string): { query: QueryEmbeddingWorker; thread: Promise<Worker> } {
  let started!: (w: Worker) => void;
  const thread = new Promise<Worker>((resolve) => (started = resolve));
  const query = new QueryEmbeddingWorker(() => {
    const w = new Worker(code, { eval: true });
    started(w);
    return w;
  });
  return { query, thread };
}

/**
 * The thread's end (events.once would reject on its 'error' event, which comes first). The guard's
 * timer also holds the event loop: the thread itself is unref'd and would not.
 */
function exited(thread: Worker): Promise<number> {
  return settlesWithin(new Promise((resolve) => thread.once('exit', resolve)), 30_000, 'the thread exiting');
}

async function workerFailed(embedding: Promise<Float32Array>): Promise<EmbeddingError> {
  const error = await settlesWithin(embedding, 30_000, 'the query embedding').then(
    () => assert.fail('resolved'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof EmbeddingError, String(error));
  assert.equal(error.code, 'embedding.worker_failed', error.message);
  assert.ok(!error.message.includes(SECRET), error.message);
  return error;
}

test('a worker that exited before the query was asked fails the embed at once (it used to wait forever)', async () => {
  const { query, thread } = workerRunning('process.exit(3)');
  await exited(await thread);
  const error = await workerFailed(query.embed(SPEC, 'q', redactor()));
  assert.match(error.message, /exited \(code 3\)/);
});

test('a worker whose code failed to load (an error naming the key) fails the embed, scrubbed here', async () => {
  const { query, thread } = workerRunning(`throw new Error('cannot load the SDK; key was ${SECRET}')`);
  await exited(await thread);
  const error = await workerFailed(query.embed(SPEC, 'q', redactor()));
  assert.match(error.message, /cannot load the SDK; key was «redacted»/);
});

test('a worker that exits or throws while embedding fails the embed', async () => {
  assert.match((await workerFailed(workerRunning(ON_QUERY('process.exit(7)')).query.embed(SPEC, 'q', redactor()))).message, /exited \(code 7\)/);
  const thrown = await workerFailed(workerRunning(ON_QUERY(`throw new Error('boom ${SECRET}')`)).query.embed(SPEC, 'q', redactor()));
  assert.match(thrown.message, /boom «redacted»/);
  assert.ok(thrown.cause instanceof Error);
});

const NOT_REPLIES: Record<string, string> = {
  null: 'null',
  'a vector that is a string': `{ type: 'vector', vector: 'nope' }`,
  'an empty vector': `{ type: 'vector', vector: new Float32Array(0) }`,
  'a vector of NaN': `{ type: 'vector', vector: new Float32Array([NaN, 1]) }`,
  'numbers, not a Float32Array': `{ type: 'vector', vector: [0.5, 0.5] }`,
  'an error with a code of another area': `{ type: 'error', code: 'agent.failed', message: 'x' }`,
  'an error without a message': `{ type: 'error', code: 'embedding.auth' }`,
};
for (const [what, reply] of Object.entries(NOT_REPLIES)) {
  test(`a worker answering ${what} fails the embed; the main thread does not throw`, async () => {
    const { query } = workerRunning(ON_QUERY(`require('node:worker_threads').parentPort.postMessage(${reply}); setInterval(() => {}, 1000);`));
    const error = await workerFailed(query.embed(SPEC, 'q', redactor()));
    assert.match(error.message, /neither a vector nor an error/);
  });
}

test('an embed asked with a signal already aborted rejects (no exception thrown at the caller) and the worker stays unused', async () => {
  const { query } = workerRunning(ON_QUERY('process.exit(1)'));
  const reason = new Error('already cancelled');
  let embedding: Promise<Float32Array> | undefined;
  assert.doesNotThrow(() => (embedding = query.embed(SPEC, 'q', redactor(), AbortSignal.abort(reason))));
  await assert.rejects(embedding!, (e) => e === reason);
  await query.dispose();
});

test('KilnIndex: a query worker that fails (it could not start) leaves the query to this thread\'s embedder, with a warning', async () => {
  const { KilnIndex } = await import('../../../src/core/index/kilnIndex');
  const { EmbeddingSchema, ProcessingSchema } = await import('../../../src/core/config/schema');
  const { startHashedEmbedServer, hashedVector } = await import('../../eval/hashedEmbedServer');
  const { normalize } = await import('../../../src/core/index/embedders/embedder');
  const server = await startHashedEmbedServer(32);
  const warnings: string[] = [];
  const log = { debug() {}, info() {}, warn(m: string) { warnings.push(m); }, error() {}, child() { return log; } };
  const { query } = workerRunning('process.exit(5)');
  const index = new KilnIndex({
    kilnRoot: '/nonexistent-kiln',
    embedding: EmbeddingSchema.parse({ provider: 'cloud_b', api_url: server.url, model: 'hashed' }),
    processing: ProcessingSchema.parse({}),
    embedderDeps: { env: {}, redactor: redactor() },
    log: log as never,
    queryWorker: query,
  });
  try {
    const vector = await settlesWithin(index.embedQuery('tomato soup'), 30_000, 'the query embedding');
    assert.deepEqual([...vector], [...normalize(hashedVector('tomato soup', 32))]);
    assert.ok(index.embedderLoaded, 'embedded in this thread');
    assert.ok(warnings.some((w) => /worker/.test(w) && /without it/.test(w)), warnings.join('\n'));
  } finally {
    await index.dispose();
    await server.stop();
  }
});
