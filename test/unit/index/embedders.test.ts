import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LLMock } from '@copilotkit/aimock';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/load';
import { EmbeddingSchema } from '../../../src/core/config/schema';
import { embedAll } from '../../../src/core/index/embedders/batching';
import { embedderSetup } from '../../../src/core/index/embedders/createEmbedder';
import type { Embedder } from '../../../src/core/index/embedders/embedder';
import { TransformersEmbedder } from '../../../src/core/index/embedders/transformersEmbedder';
import { isHearthError } from '../../../src/core/errors';
import { json, startEmbedServer, startOllamaEmbed } from './embedServers';
import { tinyModelDir, TINY_MODEL_DIM } from './tinyModel';

const embedding = (raw: Record<string, unknown>) => EmbeddingSchema.parse(raw);

/** The effective config of a global file with `toml` (embedding defaults to cloud_a when the text is empty). */
async function loadWith(toml: string, env: NodeJS.ProcessEnv) {
  const root = await mkdtemp(join(tmpdir(), 'hearth-embed-config-'));
  await writeFile(join(root, 'global.toml'), toml || '[embedding]\nprovider = "cloud_a"\n');
  return loadConfig({ workspaceRoot: root, globalConfigPath: join(root, 'global.toml'), env, trusted: true });
}
const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const hasCode = (code: string) => (error: unknown) => isHearthError(error) && error.code === code;

test('local_cpu: the real transformers.js in a worker loads the generated model from a folder and yields normalized 384-dim vectors', async () => {
  const setup = embedderSetup(embedding({ model: tinyModelDir() }), { env: {} });
  assert.equal(setup.providerType, 'local_cpu');
  assert.equal(setup.batching.maxConcurrent, 1);
  const embedder = await setup.create();
  try {
    assert.equal(embedder.constructor.name, 'WorkerEmbedder');
    const texts = ['the cat sat on the garden wall', 'a dog in the garden', 'coffee and bread for breakfast', 'the cat sat on the garden wall'];
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, 4);
    for (const v of vectors) {
      assert.ok(v instanceof Float32Array);
      assert.equal(v.length, TINY_MODEL_DIM);
      assert.ok(Math.abs(norm(v) - 1) < 1e-4);
    }
    // Same text, same vector, whatever else is in the batch; shared words score higher.
    assert.ok(dot(vectors[0], vectors[3]) > 0.9999);
    const [alone] = await embedder.embed(['the cat sat on the garden wall']);
    assert.ok(dot(alone, vectors[0]) > 0.9999);
    assert.ok(dot(vectors[0], vectors[1]) > dot(vectors[0], vectors[2]));
  } finally {
    await embedder.dispose?.();
  }
});

test('local_cpu: a missing model folder and an unreachable model host give errors that say to set model to a local folder', async () => {
  const missing = await embedderSetup(embedding({ model: '/nonexistent/model-folder' }), { env: {}, inProcess: true }).create();
  await assert.rejects(missing.embed(['x']), hasCode('embedding.model_missing'));
  const offline = new TransformersEmbedder({ providerType: 'local_cpu', model: 'Xenova/not-here', remoteHost: 'http://127.0.0.1:9/', cacheDir: '/tmp/hearth-test-cache-empty' });
  await assert.rejects(offline.embed(['x']), (error: unknown) => hasCode('embedding.model_unavailable')(error) && /\[embedding\]\.model to that folder/.test((error as Error).message) && /at another provider/.test((error as Error).message));
  // Through the worker, the same error code crosses the thread boundary.
  const viaWorker = await embedderSetup(embedding({ model: '/nonexistent/model-folder' }), { env: {} }).create();
  try {
    await assert.rejects(viaWorker.embed(['x']), hasCode('embedding.model_missing'));
  } finally {
    await viaWorker.dispose?.();
  }
});

test('local_runner: Ollama /api/embed with batches of batch_size, vectors normalized; unknown model says to pull it', async () => {
  const server = await startOllamaEmbed();
  try {
    const setup = embedderSetup(embedding({ provider: 'ollama', api_url: server.url, batch_size: 3 }), { env: {} });
    assert.equal(setup.model, 'nomic-embed-text');
    const embedder = await setup.create();
    const texts = Array.from({ length: 7 }, (_, i) => `note ${i}`);
    const vectors = await embedAll(embedder, texts, setup.batching);
    assert.equal(vectors.length, 7);
    assert.deepEqual(server.bodies.map((b) => (b.body.input as string[]).length), [3, 3, 1]);
    for (const v of vectors) assert.ok(Math.abs(norm(v) - 1) < 1e-5);
    const other = await embedderSetup(embedding({ provider: 'local_runner', model: 'mxbai', api_url: server.url }), { env: {} }).create();
    await assert.rejects(other.embed(['x']), (e: unknown) => hasCode('embedding.model_not_found')(e) && /ollama pull mxbai/.test((e as Error).message));
    // LOCAL_RUNNER_HOST is honoured when api_url is unset: config applies it once, at load.
    const loaded = await loadWith('[embedding]\nprovider = "local_runner"\n', { LOCAL_RUNNER_HOST: server.url });
    const viaEnv = await embedderSetup(loaded.config.embedding, { env: {} }).create();
    assert.equal((await viaEnv.embed(['a', 'b'])).length, 2);
    // The embedder itself never reads the variable (one normalisation, in config/envOverrides.ts).
    const before = server.bodies.length;
    const unresolved = await embedderSetup(embedding({ provider: 'local_runner' }), { env: { LOCAL_RUNNER_HOST: server.url } }).create();
    await unresolved.embed(['x']).catch(() => undefined);
    assert.equal(server.bodies.length, before, 'the request went to the default host, not to LOCAL_RUNNER_HOST');
  } finally {
    await server.stop();
  }
});

test('local_runner: a runner that is not running gives a clear error', async () => {
  const embedder = await embedderSetup(embedding({ provider: 'local_runner', api_url: 'http://127.0.0.1:9' }), { env: {} }).create();
  await assert.rejects(embedder.embed(['x']), hasCode('embedding.runner_unreachable'));
});

test('cloud_a: the real openai SDK against aimock embeddings; key from CLOUD_A_API_KEY; missing key is a clear error', async () => {
  const mock = new LLMock({ host: '127.0.0.1', port: 0 } as ConstructorParameters<typeof LLMock>[0]);
  const url = await mock.start();
  try {
    const setup = embedderSetup(embedding({ provider: 'openai', api_url: `${url}/v1`, batch_size: 2 }), { env: {}, apiKey: (await loadWith('', { CLOUD_A_API_KEY: 'sk-test' })).keys.embedding ?? 'unset' });
    assert.equal(setup.model, 'text-embedding-3-small');
    assert.equal(setup.batching.retries, 5);
    const embedder = await setup.create();
    const vectors = await embedAll(embedder, ['alpha', 'beta', 'gamma'], setup.batching);
    assert.equal(vectors.length, 3);
    assert.equal(vectors[0].length, 1536);
    for (const v of vectors) assert.ok(Math.abs(norm(v) - 1) < 1e-5);
    const [again] = await embedder.embed(['beta']);
    assert.ok(dot(again, vectors[1]) > 0.9999, 'results are matched to inputs by index');
    await assert.rejects(embedderSetup(embedding({ provider: 'cloud_a' }), { env: {} }).create(), (e: unknown) => hasCode('embedding.missing_key')(e) && /CLOUD_A_API_KEY/.test((e as Error).message));
    // The variable is read when the config loads, not by the embedder.
    await assert.rejects(embedderSetup(embedding({ provider: 'cloud_a' }), { env: { CLOUD_A_API_KEY: 'sk-late' } }).create(), hasCode('embedding.missing_key'));
  } finally {
    await mock.stop();
  }
});

test('cloud_b: needs api_url and model (no silent fallback); works against an OpenAI-compatible endpoint', async () => {
  assert.throws(() => embedderSetup({ provider: 'cloud_b', batch_size: 16 } as never, { env: {} }), hasCode('embedding.config'));
  assert.throws(() => embedderSetup({ provider: 'cloud_b', model: 'm', batch_size: 16 } as never, { env: {} }), hasCode('embedding.config'));
  const schema = EmbeddingSchema.safeParse({ provider: 'cloud_b' });
  assert.equal(schema.success, false);
  const mock = new LLMock({ host: '127.0.0.1', port: 0 } as ConstructorParameters<typeof LLMock>[0]);
  const url = await mock.start();
  try {
    const embedder = await embedderSetup(embedding({ provider: 'cloud_b', api_url: `${url}/v1`, model: 'embed-v1' }), { env: {}, apiKey: 'k' }).create();
    assert.equal((await embedder.embed(['x', 'y'])).length, 2);
  } finally {
    await mock.stop();
  }
});

test('hosted providers: HTTP 429 is retried with backoff, then succeeds; a 401 is not retried', async () => {
  let calls = 0;
  const server = await startEmbedServer((_path, body, res) => {
    calls++;
    if (calls <= 2) return json(res, 429, { error: { message: 'rate limited', type: 'rate_limit' } });
    const input = body.input as string[];
    json(res, 200, { object: 'list', model: 'm', data: input.map((_, index) => ({ object: 'embedding', index, embedding: [1, index + 1, 0] })), usage: { prompt_tokens: 1, total_tokens: 1 } });
  });
  try {
    const setup = embedderSetup(embedding({ provider: 'cloud_a', api_url: server.url }), { env: {} });
    const embedder = await setup.create();
    const vectors = await embedAll(embedder, ['a', 'b'], { ...setup.batching, baseDelayMs: 5 });
    assert.equal(calls, 3);
    assert.equal(vectors.length, 2);
  } finally {
    await server.stop();
  }
  const refusing = await startEmbedServer((_p, _b, res) => json(res, 401, { error: { message: 'bad key' } }));
  try {
    const embedder = await embedderSetup(embedding({ provider: 'cloud_a', api_url: refusing.url }), { env: {} }).create();
    await assert.rejects(embedAll(embedder, ['a'], { batchSize: 16, maxConcurrent: 1, retries: 5, baseDelayMs: 5 }), hasCode('embedding.auth'));
    assert.equal(refusing.bodies.length, 1);
  } finally {
    await refusing.stop();
  }
});

test('batching: batch_size texts per call, at most max_concurrent calls at once, results in input order', async () => {
  let inFlight = 0;
  let peak = 0;
  const sizes: number[] = [];
  const fake: Embedder = {
    providerType: 'fake',
    model: 'fake',
    async embed(texts) {
      inFlight++;
      peak = Math.max(peak, inFlight);
      sizes.push(texts.length);
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
      inFlight--;
      return texts.map((t) => Float32Array.of(Number(t)));
    },
  };
  const texts = Array.from({ length: 50 }, (_, i) => String(i));
  const out = await embedAll(fake, texts, { batchSize: 4, maxConcurrent: 3 });
  assert.deepEqual(out.map((v) => v[0]), texts.map(Number));
  assert.equal(peak, 3);
  assert.equal(sizes.length, 13);
  assert.ok(sizes.every((s) => s <= 4));
});

test('local_gpu_a / local_gpu_b require model; local_gpu_b without node-llama-cpp says how to install it', async () => {
  assert.throws(() => embedderSetup({ provider: 'local_gpu_a', batch_size: 16 } as never, { env: {} }), hasCode('embedding.config'));
  assert.throws(() => embedderSetup({ provider: 'local_gpu_b', batch_size: 16 } as never, { env: {} }), hasCode('embedding.config'));
  const setup = embedderSetup(embedding({ provider: 'local_gpu_b', model: '/models/embed.gguf' }), { env: {} });
  const embedder = await setup.create();
  await assert.rejects(embedder.embed(['x']), (e: unknown) => hasCode('embedding.package_missing')(e) && /npm install node-llama-cpp/.test((e as Error).message));
});
