// `npm run bench` part `embed` (issue 31): local_cpu's embedders on a realistic kiln (corpus:
// test/bench/embedCorpus.ts), every figure beside its baseline from the same run:
//  - the static model2vec embedder's chunks/s (a generated 20k-token × 256 table: speed depends on
//    the table's shape and the tokenizer, not the weights);
//  - a transformer of bge-small's exact shape (generated: test/fixtures/tiny-model/bertShape.mjs)
//    before (float32, 16 chunks per call in note order, as until issue 31) and after (int8, sorted
//    by length and batched by token budget), interleaved A B A B, with each one's padding ratio
//    (tokens computed ÷ real tokens, counted by the model's own tokenizer);
//  - the first index of a generated 10,000-note kiln with the static embedder, end to end in a
//    process of its own (scan, parse, chunk, embed in the worker, store, then the first search),
//    against the old default's time at the chunks/s measured above.
// Sizes: HEARTH_BENCH_EMBED_NOTES (10000), HEARTH_BENCH_EMBED_CHUNKS (transformer sample, 128),
// HEARTH_BENCH_EMBED_ROUNDS (3). `node --import tsx test/bench/embedders.bench.ts` runs it alone.
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { chunkNote } from '../../src/core/index/chunker';
import { embedAll, tokenBudgetBatches, type BatchingOptions } from '../../src/core/index/embedders/batching';
import type { Embedder } from '../../src/core/index/embedders/embedder';
import { StaticEmbedder } from '../../src/core/index/embedders/static/staticEmbedder';
import { WordPieceTokenizer, wordPieceOptions } from '../../src/core/index/embedders/static/wordPiece';
import { TransformersEmbedder } from '../../src/core/index/embedders/transformersEmbedder';
import { embeddingText } from '../../src/core/index/indexer';
import { parseNote } from '../../src/core/kiln/note';
import { generateStaticModel, staticVocabulary } from '../fixtures/static-model/generate.mjs';
import { generateBertModel } from '../fixtures/tiny-model/bertShape.mjs';
import { generateKiln, loadCorpus } from './embedCorpus';
import { runScenario } from './scenarioProcess';

const here = import.meta.dirname;
const TMP = join(here, '..', '..', '.tmp');
const NOTES = Number(process.env.HEARTH_BENCH_EMBED_NOTES ?? 10_000);
const SAMPLE = Number(process.env.HEARTH_BENCH_EMBED_CHUNKS ?? 128);
const ROUNDS = Number(process.env.HEARTH_BENCH_EMBED_ROUNDS ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fixed = (n: number, digits = 1) => n.toFixed(digits);

/** Chunk texts of notes, in note order, as the indexer hands them to the embedder. */
function chunkTexts(notes: string[]): string[] {
  return notes.flatMap((text, i) => {
    const note = parseNote(`note${i}.md`, text);
    return chunkNote(note).map((c) => embeddingText(note, c));
  });
}

/** Seconds to embed `texts` as the indexer does: groups of `group` chunks, each through embedAll. */
async function timeEmbedding(embedder: Embedder, texts: string[], batching: BatchingOptions, group: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < texts.length; i += group) await embedAll(embedder, texts.slice(i, i + group), batching);
  return (performance.now() - started) / 1000;
}

/** Tokens the model computes over the real ones when each batch is padded to its longest (the model's own tokenizer counts). */
function paddingRatio(batches: string[][], tokens: (text: string) => number): number {
  let padded = 0;
  let real = 0;
  for (const batch of batches) {
    const lengths = batch.map(tokens);
    padded += batch.length * Math.max(...lengths);
    real += lengths.reduce((a, b) => a + b, 0);
  }
  return padded / real;
}

/** The batches embedAll forms for `texts`, recorded from the calls a pass-through embedder sees. */
async function batchesOf(texts: string[], batching: BatchingOptions, group: number): Promise<string[][]> {
  const calls: string[][] = [];
  const recorder: Embedder = { providerType: 'local_cpu', model: 'recorder', embed: async (batch) => (calls.push(batch), batch.map(() => new Float32Array(1))) };
  await timeEmbedding(recorder, texts, batching, group);
  return calls;
}

function indexScenario(kiln: string, model: string): Promise<Record<string, unknown>> {
  return runScenario(join(here, 'embedIndexScenario.ts'), [kiln, model], 15 * 60_000);
}

export async function runEmbedBench(): Promise<{ label: string; value: string }[]> {
  const lines: { label: string; value: string }[] = [];
  const add = (label: string, value: string) => {
    lines.push({ label, value });
    console.error(`embed: ${label}: ${value}`);
  };
  add('machine', `${availableParallelism()} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')} at start`);
  const corpus = loadCorpus();
  const vocab = staticVocabulary(corpus.vocabulary);
  const texts = chunkTexts(corpus.notes);
  add('corpus', `${corpus.notes.length} eval notes → ${texts.length} chunks (${fixed(texts.length / corpus.notes.length)} per note), vocabulary ${Object.keys(vocab).length} tokens`);

  // The static embedder, in this thread (the worker adds a message per batch; the first index below has it).
  const staticDir = generateStaticModel(join(TMP, 'bench-static-model'), { words: corpus.vocabulary });
  const staticEmbedder = new StaticEmbedder({ providerType: 'local_cpu', model: staticDir });
  await staticEmbedder.embed(texts.slice(0, 64));
  const staticRates: number[] = [];
  for (let r = 0; r < 3; r++) staticRates.push(texts.length / (await timeEmbedding(staticEmbedder, texts, { batchSize: 16, maxConcurrent: 1, tokenBudget: 4096 }, 128)));
  add('static embedder (model2vec, 256 dims): chunks/s', `${fixed(median(staticRates), 0)} (median of 3 passes over ${texts.length} chunks)`);

  // The transformer at bge-small's shape: before (float32, 16 per call in note order) and after (int8, token budget), interleaved.
  const bertDir = generateBertModel(join(TMP, 'bench-bge-small'), vocab);
  const tokenizer = new WordPieceTokenizer(wordPieceOptions(JSON.parse(readFileSync(join(bertDir, 'tokenizer.json'), 'utf8')))!);
  const tokens = (text: string) => Math.min(512, tokenizer.encode(text).length + 2);
  const sample = texts.slice(0, SAMPLE);
  const before = { embedder: new TransformersEmbedder({ providerType: 'local_cpu', model: `${bertDir}@fp32` }), batching: { batchSize: 16, maxConcurrent: 1 }, group: 32 };
  const after = { embedder: new TransformersEmbedder({ providerType: 'local_cpu', model: bertDir }), batching: { batchSize: 16, maxConcurrent: 1, tokenBudget: 16 * 256 }, group: 128 };
  for (const side of [before, after]) await side.embedder.embed(sample.slice(0, 2));
  const rates = { before: [] as number[], after: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    rates.before.push(sample.length / (await timeEmbedding(before.embedder, sample, before.batching, before.group)));
    rates.after.push(sample.length / (await timeEmbedding(after.embedder, sample, after.batching, after.group)));
  }
  const ratios = rates.after.map((a, i) => a / rates.before[i]);
  const realTokens = sample.reduce((s, t) => s + tokens(t), 0) / sample.length;
  add('bge-small shape: real tokens per chunk', fixed(realTokens));
  add('bge-small shape, before (fp32, 16 per call in note order): chunks/s', `${fixed(median(rates.before), 2)}; padding ${fixed(paddingRatio(await batchesOf(sample, before.batching, before.group), tokens), 2)}× real tokens`);
  // The embedder splits each call once more by its tokenizer's real counts (TransformersEmbedder.embed): the calls the model sees.
  const afterCalls = (await batchesOf(sample, after.batching, after.group)).flatMap((call) => tokenBudgetBatches(call.map(tokens), Infinity, call.length).map((g) => g.map((i) => call[i])));
  add('bge-small shape, after (int8, sorted, token budget): chunks/s', `${fixed(median(rates.after), 2)}; padding ${fixed(paddingRatio(afterCalls, tokens), 2)}× real tokens`);
  add('bge-small shape: after ÷ before (median of per-round ratios)', `${fixed(median(ratios), 2)}× (rounds: ${ratios.map((x) => fixed(x, 2)).join(', ')})`);
  await before.embedder.dispose();
  await after.embedder.dispose();
  add('static ÷ bge-small before', `${fixed(median(staticRates) / median(rates.before), 0)}×`);

  // The first index of a generated kiln with the static embedder, end to end (HEARTH_BENCH_EMBED_NOTES=0 skips it).
  if (NOTES === 0) return lines;
  const kiln = generateKiln(corpus, NOTES);
  try {
    const started = performance.now();
    const result = await indexScenario(kiln, staticDir);
    const wall = (performance.now() - started) / 1000;
    if (typeof result.seconds !== 'number') add(`first index of ${NOTES} notes (static)`, String(result.error));
    else {
      const chunks = Number(result.chunks);
      add(`first index of ${NOTES} notes (static): seconds`, `${fixed(result.seconds)} (${chunks} chunks, ${fixed(chunks / result.seconds, 0)} chunks/s; process wall ${fixed(wall)} s)`);
      add(`first index of ${NOTES} notes (static): CPU seconds, all threads`, `${fixed(Number(result.cpuSeconds))} (the wall time on an idle 2-core machine is about this or less)`);
      add(`first index of ${NOTES} notes (static): first search after it`, `${fixed(Number(result.firstSearchSeconds), 2)} s`);
      add(`first index of ${NOTES} notes (static): peak RSS`, `${fixed(Number(result.rssMb), 0)} MB`);
      add(`the same chunks with bge-small before / after (at the rates above)`, `${fixed(chunks / median(rates.before) / 3600, 1)} h / ${fixed(chunks / median(rates.after) / 3600, 1)} h`);
    }
  } finally {
    rmSync(kiln, { recursive: true, force: true });
  }
  add('machine', `load ${loadavg().map((l) => l.toFixed(1)).join(' ')} at end`);
  return lines;
}

if (process.argv[1] === import.meta.filename) {
  runEmbedBench().then(
    (lines) => console.log(lines.map((l) => `${l.label}: ${l.value}`).join('\n')),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
