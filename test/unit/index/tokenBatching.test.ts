// Local models pad a batch to its longest text (issue 31): texts are sorted by length and batched by
// a token budget, each batch padded at most 1.1× its real tokens — and every result still lands at
// its text's place. Also: int8 weights by default where the model ships them, float32 by `@fp32`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddingSchema } from '../../../src/core/config/schema';
import { isHearthError } from '../../../src/core/errors';
import { embedAll, estimateTokens, tokenBudgetBatches } from '../../../src/core/index/embedders/batching';
import { embedderSetup } from '../../../src/core/index/embedders/createEmbedder';
import type { Embedder } from '../../../src/core/index/embedders/embedder';
import { StaticEmbedder } from '../../../src/core/index/embedders/static/staticEmbedder';
import { TransformersEmbedder } from '../../../src/core/index/embedders/transformersEmbedder';
import { rng } from '../../fixtures/tiny-model/generate.mjs';
import { generateStaticModel } from '../../fixtures/static-model/generate.mjs';
import { tinyModelDir } from './tinyModel';

const WORDS = 'the cat sat on a garden wall while river water ran past the old mountain city and coffee bread tea apple'.split(' ');

/** Texts of 1 to 120 words, in a seeded random order. */
function texts(count: number, seed = 3): string[] {
  const rand = rng(seed);
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(rand() ** 2 * 120) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' '));
}

/** Records every call's texts on the way to a real embedder. */
function recording(inner: Embedder): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return { providerType: inner.providerType, model: inner.model, calls, embed: (batch, signal) => (calls.push(batch), inner.embed(batch, signal)) };
}

test('token-budget batches: every text once, longest first, each batch padded at most 1.1× and within the budget', () => {
  const rand = rng(11);
  const lengths = Array.from({ length: 500 }, () => 3 + Math.floor(rand() * 300));
  lengths.push(2000); // longer than the budget: a batch of its own
  const batches = tokenBudgetBatches(lengths, 4096, 128);
  assert.deepEqual(batches.flat().sort((a, b) => a - b), lengths.map((_, i) => i));
  assert.deepEqual(batches[0], [500]);
  let padded = 0;
  let real = 0;
  for (const batch of batches) {
    const sizes = batch.map((i) => lengths[i]);
    const longest = Math.max(...sizes);
    const sum = sizes.reduce((a, b) => a + b, 0);
    assert.equal(sizes[0], longest);
    assert.ok(batch.length * longest <= 1.1 * sum + 1e-9, `padding ${(batch.length * longest) / sum}`);
    assert.ok(batch.length === 1 || batch.length * longest <= 4096);
    assert.ok(batch.length <= 128);
    padded += batch.length * longest;
    real += sum;
  }
  assert.ok(padded / real <= 1.1);
});

test('embedAll by token budget returns each vector at its text\'s place (the real static embedder, batches of similar length)', async () => {
  const model = generateStaticModel(join(mkdtempSync(join(tmpdir(), 'hearth-batching-')), 'model'));
  const embedder = recording(new StaticEmbedder({ providerType: 'local_cpu', model }));
  const input = texts(200);
  const batched = await embedAll(embedder, input, { batchSize: 16, maxConcurrent: 2, tokenBudget: 16 * 256 });
  assert.ok(embedder.calls.length > 1);
  // The calls saw the texts sorted by length, not in the given order.
  assert.notDeepEqual(embedder.calls.flat(), input);
  const alone = await Promise.all(input.map(async (text) => (await embedder.embed([text]))[0]));
  for (let i = 0; i < input.length; i++) assert.deepEqual([...batched[i]], [...alone[i]], `text ${i}`);
});

test('embedAll by token budget with the real transformers.js model: the same vectors as one text per call, in the given order, with less padding', async () => {
  const embedder = recording(new TransformersEmbedder({ providerType: 'local_cpu', model: tinyModelDir() }));
  const input = texts(48, 5);
  const byBudget = await embedAll(embedder, input, { batchSize: 8, maxConcurrent: 1, tokenBudget: 8 * 256 });
  const budgetCalls = embedder.calls.splice(0);
  const oneByOne = await embedAll(embedder, input, { batchSize: 1, maxConcurrent: 1 });
  for (let i = 0; i < input.length; i++) byBudget[i].forEach((x, j) => assert.ok(Math.abs(x - oneByOne[i][j]) < 1e-4, `text ${i} dim ${j}`));
  // One call with every length mixed: the embedder runs them in groups of similar length (by its
  // own tokenizer's count) and still answers in the given order.
  const direct = await new TransformersEmbedder({ providerType: 'local_cpu', model: tinyModelDir() }).embed(input);
  for (let i = 0; i < input.length; i++) direct[i].forEach((x, j) => assert.ok(Math.abs(x - oneByOne[i][j]) < 1e-4, `one call: text ${i} dim ${j}`));
  const padding = (calls: string[][]) => {
    let padded = 0;
    let real = 0;
    for (const call of calls) {
      const lengths = call.map(estimateTokens);
      padded += call.length * Math.max(...lengths);
      real += lengths.reduce((a, b) => a + b, 0);
    }
    return padded / real;
  };
  const inOrder: string[][] = [];
  for (let i = 0; i < input.length; i += 8) inOrder.push(input.slice(i, i + 8));
  assert.ok(padding(budgetCalls) <= 1.1, `padding ${padding(budgetCalls)}`);
  assert.ok(padding(inOrder) > 1.5, `batches of 8 in order pad ${padding(inOrder)}`);
  await embedder.embed([]);
});

test('local models get a token budget (batch_size × 256); hosted ones keep batch_size texts per call', () => {
  assert.equal(embedderSetup(EmbeddingSchema.parse({}), { env: {} }).batching.tokenBudget, 16 * 256);
  assert.equal(embedderSetup(EmbeddingSchema.parse({ batch_size: 4 }), { env: {} }).batching.tokenBudget, 4 * 256);
  assert.equal(embedderSetup(EmbeddingSchema.parse({ provider: 'cloud_a' }), { env: {} }).batching.tokenBudget, undefined);
});

test('transformers: int8 weights by default when the folder ships them, float32 with model = "…@fp32" or when it does not', async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-dtype-'));
  const onlyInt8 = join(root, 'int8');
  const onlyFloat = join(root, 'float');
  cpSync(tinyModelDir(), onlyInt8, { recursive: true });
  cpSync(tinyModelDir(), onlyFloat, { recursive: true });
  rmSync(join(onlyInt8, 'onnx', 'model.onnx'));
  rmSync(join(onlyFloat, 'onnx', 'model_quantized.onnx'));
  const embed = (model: string) => new TransformersEmbedder({ providerType: 'local_cpu', model }).embed(['the cat']);
  assert.equal((await embed(onlyInt8))[0].length, 384);
  assert.equal((await embed(onlyFloat))[0].length, 384);
  await assert.rejects(embed(`${onlyInt8}@fp32`), (e: unknown) => isHearthError(e) && e.code === 'embedding.model_unavailable' && /model\.onnx/.test((e as Error).message));
  assert.equal((await embed(`${onlyFloat}@fp32`))[0].length, 384);
});
