import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddingSchema, ProcessingSchema } from '../../../src/core/config/schema';
import { silentLogger } from '../../../src/core/host';
import { embedAll } from '../../../src/core/index/embedders/batching';
import { embedderSetup } from '../../../src/core/index/embedders/createEmbedder';
import type { Embedder } from '../../../src/core/index/embedders/embedder';
import { EmbedderPool } from '../../../src/core/index/embedders/embedderPool';
import { TransformersEmbedder } from '../../../src/core/index/embedders/transformersEmbedder';
import { KilnIndex } from '../../../src/core/index/kilnIndex';
import { makeKiln, removeKiln } from './kilnIndexHelpers';
import { tinyModelDir } from './tinyModel';

const DIM = 8;
const embedding = (raw: Record<string, unknown>) => EmbeddingSchema.parse(raw);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** An embedder that records how many of its calls overlap (it answers a few event-loop turns later). */
function instrumented(stats: { inFlight: number; max: number; calls: number }, name = 'fake'): Embedder {
  return {
    providerType: 'local_cpu',
    model: name,
    async embed(texts) {
      stats.calls++;
      stats.max = Math.max(stats.max, ++stats.inFlight);
      await turns(3);
      stats.inFlight--;
      return texts.map((t) => Float32Array.from({ length: DIM }, (_, i) => ((t.charCodeAt(i % t.length) * (i + 3)) % 13) - 6));
    },
  };
}

test('EmbedderPool: one member until it has answered, then up to size members each taking calls; a lone caller uses one', async () => {
  const members: { inFlight: number; max: number; calls: number }[] = [];
  const all = { inFlight: 0, max: 0, calls: 0 };
  const pool = new EmbedderPool('local_cpu', 'fake', 3, () => {
    const stats = { inFlight: 0, max: 0, calls: 0 };
    members.push(stats);
    const inner = instrumented(stats);
    return { ...inner, embed: async (texts) => (all.max = Math.max(all.max, ++all.inFlight), await inner.embed(texts).finally(() => all.inFlight--)) };
  });
  const texts = Array.from({ length: 40 }, (_, i) => `text number ${i}`);
  const vectors = await embedAll(pool, texts, { batchSize: 4, maxConcurrent: 3 });
  assert.equal(pool.started, 3, 'three workers for three concurrent batches');
  assert.equal(all.max, 3);
  assert.equal(members[0].max, 3, 'before its first answer, member 0 took every call (one model download)');
  assert.ok(members.every((m) => m.calls > 0), `every member embedded: ${members.map((m) => m.calls)}`);
  const single = await instrumented({ inFlight: 0, max: 0, calls: 0 }).embed(texts);
  assert.deepEqual(vectors, single, 'results in input order');
  await pool.dispose();

  const lone = new EmbedderPool('local_cpu', 'fake', 4, () => instrumented({ inFlight: 0, max: 0, calls: 0 }));
  for (let i = 0; i < 5; i++) await lone.embed(['one query']);
  assert.equal(lone.started, 1, 'sequential calls (searches) never start a second worker');
});

test('parallel_workers: local_cpu keeps that many batches in flight (unless max_concurrent is set); other providers keep their own', () => {
  assert.equal(embedderSetup(embedding({ model: tinyModelDir() }), { env: {}, workers: 3 }).batching.maxConcurrent, 3);
  assert.equal(embedderSetup(embedding({ model: tinyModelDir(), max_concurrent: 1 }), { env: {}, workers: 3 }).batching.maxConcurrent, 1);
  assert.equal(embedderSetup(embedding({ model: tinyModelDir() }), { env: {} }).batching.maxConcurrent, 1);
  assert.equal(embedderSetup(embedding({ provider: 'local_runner' }), { env: {}, workers: 5 }).batching.maxConcurrent, 2);
});

test('parallel_workers: the indexer embeds that many batches at once (1 → one at a time)', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`n${i}.md`] = `# Note ${i}\n\nfirst part ${i}\n\n## More\n\nsecond part ${i}\n`;
  const root = makeKiln(files);
  try {
    for (const workers of [3, 1]) {
      const stats = { inFlight: 0, max: 0, calls: 0 };
      const index = new KilnIndex({
        kilnRoot: root,
        embedding: embedding({ model: tinyModelDir(), batch_size: 4 }),
        processing: ProcessingSchema.parse({ parallel_workers: workers }),
        embedderDeps: { env: {} },
        log: silentLogger,
      });
      index.setup.create = async () => instrumented(stats);
      try {
        const report = await index.update({ force: true });
        assert.equal(report.embedded, 120);
        assert.equal(stats.max, workers, `parallel_workers = ${workers}`);
      } finally {
        await index.dispose();
      }
    }
  } finally {
    removeKiln(root);
  }
});

test('parallel_workers = 2: local_cpu runs two real transformers.js worker threads, with the same vectors as one', async () => {
  const setup = embedderSetup(embedding({ model: tinyModelDir(), batch_size: 2 }), { env: {}, workers: 2 });
  const pool = (await setup.create()) as EmbedderPool;
  const reference = new TransformersEmbedder({ providerType: 'local_cpu', model: tinyModelDir() });
  try {
    assert.ok(pool instanceof EmbedderPool);
    const texts = ['the cat sat on the garden wall', 'a dog in the garden', 'coffee and bread', 'tomato basil', 'rain in spring', 'yeast and flour', 'compost heap', 'morning tea'];
    const vectors = await embedAll(pool, texts, setup.batching);
    assert.equal(pool.started, 2);
    const expected = await reference.embed(texts);
    vectors.forEach((v, i) => assert.ok(dot(v, expected[i]) > 0.9999, texts[i]));
  } finally {
    await pool.dispose();
    await reference.dispose();
  }
});
