// local_cpu's default (issue 31): a model2vec static model — tokenizer.json + model.safetensors —
// computed in Node. Generated tables (no weights can be downloaded here): the tokenizer against
// transformers.js's own, pooling and normalization by hand, unknown tokens, empty and huge texts,
// F16 tables, fetching into the model cache from a local "hub", a real KilnIndex, the re-embed
// when the model changes, and broken model folders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddingSchema, ProcessingSchema } from '../../../src/core/config/schema';
import { isHearthError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/host';
import { embedderSetup } from '../../../src/core/index/embedders/createEmbedder';
import { isStaticModel, StaticEmbedder } from '../../../src/core/index/embedders/static/staticEmbedder';
import { WordPieceTokenizer, wordPieceOptions } from '../../../src/core/index/embedders/static/wordPiece';
import { KilnIndex } from '../../../src/core/index/kilnIndex';
import { generateStaticModel, safetensorsBytes, staticTokenizerJson, staticVocabulary } from '../../fixtures/static-model/generate.mjs';
import { tinyModelDir } from './tinyModel';

const hasCode = (code: string) => (error: unknown) => isHearthError(error) && error.code === code;
const tmp = (name: string) => mkdtempSync(join(tmpdir(), `hearth-static-${name}-`));
const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** A 4-dim table whose rows are chosen: cat = e0, dog = e1, fish = 3·e2, every other token a small e3. */
function handMadeModel(): string {
  const dir = tmp('hand');
  const vocab = staticVocabulary();
  const rows = Object.keys(vocab).length;
  const values = new Float32Array(rows * 4);
  for (let r = 0; r < rows; r++) values[r * 4 + 3] = 0.01;
  const set = (token: string, row: number[]) => values.set(row, vocab[token] * 4);
  set('cat', [1, 0, 0, 0]);
  set('dog', [0, 1, 0, 0]);
  set('fish', [0, 0, 3, 0]);
  writeFileSync(join(dir, 'model.safetensors'), safetensorsBytes({ embeddings: { dtype: 'F32', shape: [rows, 4], values } }));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(staticTokenizerJson(vocab)));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'model2vec', normalize: true }));
  return dir;
}

const embedOne = async (dir: string, text: string) => (await new StaticEmbedder({ providerType: 'local_cpu', model: dir }).embed([text]))[0];

test('static tokenizer: the same ids as transformers.js for accents, CJK, control characters, punctuation, long and unknown words', async () => {
  const dir = generateStaticModel(join(tmp('tok'), 'model'));
  const json = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as unknown;
  const ours = new WordPieceTokenizer(wordPieceOptions(json)!);
  const tf = await import('@huggingface/transformers');
  const theirs = new tf.PreTrainedTokenizer(json as Record<string, unknown>, {});
  const texts = [
    'The cat sat on the mat.', 'Café résumé naïve ÀÉÎ', '我爱 river 東京', 'tabs\tand\nnewlines\r\nx', 'ctrl\u0001\u0007chars\u200b zero\ufeffwidth',
    'cats dogs readings started', `${'a'.repeat(150)} ok`, 'emoji 😀 fire🔥', 'hello,world!(x)[y]{z}', 'https://example.com/a_b?c=d#e',
    '“quotes” — dashes… ¿qué?', 'İstanbul ǅ ß ﬁ', 'zzzq unknownword treehouse', '', '   ', 'über-fast 3.14 $100 50%', '\u00a0nbsp\u2003em', '[CLS] tag [MASK]',
  ];
  for (const text of texts) assert.deepEqual(ours.encode(text), theirs.encode(text, { add_special_tokens: false }), JSON.stringify(text));
});

test('static embedder: the mean of the tokens\' rows, scaled to unit length; unknown tokens left out; no known token gives zeros', async () => {
  const dir = handMadeModel();
  const s = Math.SQRT1_2;
  assert.deepEqual([...(await embedOne(dir, 'cat'))], [1, 0, 0, 0]);
  assert.deepEqual([...(await embedOne(dir, 'Cat DOG'))].map((x) => +x.toFixed(6)), [+s.toFixed(6), +s.toFixed(6), 0, 0]);
  // Mean, not max: two cats and a dog point twice as far along cat.
  const two = await embedOne(dir, 'cat cat dog');
  assert.ok(Math.abs(two[0] / two[1] - 2) < 1e-6);
  // The row's length counts (model2vec's zipf-weighted rows): fish pulls three times as hard.
  const fish = await embedOne(dir, 'cat fish');
  assert.ok(Math.abs(fish[2] / fish[0] - 3) < 1e-6);
  // An unknown word ([UNK]) is left out, as model2vec does: it does not dilute the known ones.
  assert.deepEqual([...(await embedOne(dir, 'cat жжж'))], [1, 0, 0, 0]);
  for (const text of ['', '   ', 'жжж', '\u0001']) assert.deepEqual([...(await embedOne(dir, text))], [0, 0, 0, 0], JSON.stringify(text));
});

test('static embedder: a 100,000-character text is embedded from its first 512 tokens, finite and unit length', async () => {
  const dir = generateStaticModel(join(tmp('long'), 'model'));
  const words = 'the cat sat on the river bank and read a book about fire and water '.split(' ');
  const long = Array.from({ length: 30_000 }, (_, i) => words[i % words.length]).join(' ').slice(0, 100_000);
  assert.equal(long.length, 100_000);
  const [vector, head] = await new StaticEmbedder({ providerType: 'local_cpu', model: dir }).embed([long, long.slice(0, 4000)]);
  assert.equal(vector.length, 256);
  assert.ok(vector.every(Number.isFinite));
  assert.ok(Math.abs(norm(vector) - 1) < 1e-5);
  // 4,000 characters hold more than 512 tokens: the same vector, so the rest was never read.
  assert.deepEqual([...vector], [...head]);
});

test('static embedder: an F16 table gives the F32 table\'s vectors to half precision', async () => {
  const root = tmp('f16');
  const f32 = generateStaticModel(join(root, 'f32'), { dim: 64 });
  const f16 = generateStaticModel(join(root, 'f16'), { dim: 64, dtype: 'F16' });
  const texts = ['the garden book', 'coffee and bread', 'river mountain city'];
  const [a, b] = await Promise.all([f32, f16].map((model) => new StaticEmbedder({ providerType: 'local_cpu', model }).embed(texts)));
  for (let i = 0; i < texts.length; i++) a[i].forEach((x, j) => assert.ok(Math.abs(x - b[i][j]) < 2e-3));
});

test('static model: a model2vec folder is static, a transformer folder is not; the default is a static model', async () => {
  assert.equal(await isStaticModel(generateStaticModel(join(tmp('kind'), 'model')), {}), true);
  assert.equal(await isStaticModel(tinyModelDir(), {}), false);
  const setup = embedderSetup(EmbeddingSchema.parse({}), { env: {} });
  assert.equal(setup.model, 'minishlab/potion-base-8M');
  assert.equal(await isStaticModel(setup.model, { remoteHost: 'http://127.0.0.1:9/' }), true);
});

test('static model: fetched on first use into the model cache from the hub (here a local server), then read from there', async () => {
  const source = generateStaticModel(join(tmp('hub'), 'model'));
  const served: string[] = [];
  const server = createServer((req, res) => {
    const m = /^\/minishlab\/potion-test\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    if (!m) return res.writeHead(404).end();
    served.push(m[1]);
    const body = readFileSync(join(source, m[1]));
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const cacheDir = tmp('cache');
  try {
    const progress: string[] = [];
    const first = await new StaticEmbedder({ providerType: 'local_cpu', model: 'minishlab/potion-test', cacheDir, remoteHost: host, onProgress: (m) => progress.push(m) }).embed(['the cat']);
    assert.deepEqual(served.sort(), ['config.json', 'model.safetensors', 'tokenizer.json']);
    assert.ok(progress.some((m) => /Downloading model\.safetensors \(100%\)/.test(m)), progress.join('; '));
    assert.deepEqual(readFileSync(join(cacheDir, 'minishlab/potion-test/model.safetensors')), readFileSync(join(source, 'model.safetensors')));
    // Cached: a host that cannot be reached is never asked.
    const again = await new StaticEmbedder({ providerType: 'local_cpu', model: 'minishlab/potion-test', cacheDir, remoteHost: 'http://127.0.0.1:9/' }).embed(['the cat']);
    assert.deepEqual([...again[0]], [...first[0]]);
  } finally {
    server.close();
  }
  // Nothing cached and no hub: the error says which files to copy and where to point model, or
  // which other provider to point [embedding] at, that search answers on words meanwhile, and why
  // (the socket's words, not fetch's bare "fetch failed").
  await assert.rejects(
    new StaticEmbedder({ providerType: 'local_cpu', model: 'minishlab/potion-base-8M', cacheDir: tmp('empty'), remoteHost: 'http://127.0.0.1:9/' }).embed(['x']),
    (e: unknown) => {
      const message = (e as Error).message;
      assert.ok(hasCode('embedding.model_unavailable')(e), message);
      assert.match(message, /tokenizer\.json, model\.safetensors/);
      assert.match(message, /\[embedding\]\.model to that folder/);
      assert.match(message, /point \[embedding\] at another provider \(provider = "local_runner"/);
      assert.match(message, /search matches words only until it is available/);
      assert.match(message, /fetch failed \(bad port\)/);
      return true;
    },
  );
});

/** A copy of a generated model folder, with `change` applied to it. */
function brokenModel(change: (dir: string) => void): string {
  const source = generateStaticModel(join(tmpdir(), 'hearth-static-broken-source'));
  const dir = tmp('broken');
  for (const file of ['config.json', 'tokenizer.json', 'model.safetensors']) copyFileSync(join(source, file), join(dir, file));
  change(dir);
  return dir;
}

test('static model: a truncated table, a vocabulary/matrix size mismatch and a NaN are errors naming the file, never a vector', async () => {
  const invalid = (dir: string, pattern: RegExp) =>
    assert.rejects(embedOne(dir, 'the cat'), (e: unknown) => hasCode('embedding.model_invalid')(e) && pattern.test((e as Error).message) && (e as Error).message.includes(dir));
  const table = (dir: string) => join(dir, 'model.safetensors');
  await invalid(brokenModel((d) => truncateSync(table(d), readFileSync(table(d)).length - 100)), /model\.safetensors is not a valid safetensors file: tensor "embeddings" ends at byte \d+ but the file holds/);
  await invalid(brokenModel((d) => truncateSync(table(d), 5)), /model\.safetensors is not a valid safetensors file: it holds 5 bytes/);
  await invalid(brokenModel((d) => writeFileSync(table(d), Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]), Buffer.alloc(64)]))), /header claims \d+ bytes/);
  await invalid(brokenModel((d) => {
    const bytes = readFileSync(table(d));
    bytes.write('!', 8);
    writeFileSync(table(d), bytes);
  }), /header is not JSON/);
  await invalid(brokenModel((d) => {
    const json = JSON.parse(readFileSync(join(d, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } };
    json.model.vocab.extraword = Object.keys(json.model.vocab).length;
    writeFileSync(join(d, 'tokenizer.json'), JSON.stringify(json));
  }), /tokenizer\.json has \d+ tokens but .*model\.safetensors has \d+ rows \(a vocabulary\/matrix size mismatch\)/);
  await invalid(brokenModel((d) => {
    const bytes = readFileSync(table(d));
    const headerLength = Number(bytes.readBigUInt64LE(0));
    bytes.writeFloatLE(NaN, 8 + headerLength + 4 * 256 * 7 + 12);
    writeFileSync(table(d), bytes);
  }), /model\.safetensors holds NaN in the row of token "\[MASK\]" \(row 4\)|holds NaN in the row of token/);
  await invalid(brokenModel((d) => writeFileSync(join(d, 'tokenizer.json'), '{"model": ')), /tokenizer\.json is not valid JSON/);
  // A newer model2vec table (per-token weights) is refused, not read as if it had none.
  await invalid(brokenModel((d) => {
    const rows = Object.keys(staticVocabulary()).length;
    writeFileSync(table(d), safetensorsBytes({ embeddings: { dtype: 'F32', shape: [rows, 4], values: new Float32Array(rows * 4).fill(0.5) }, weights: { dtype: 'F32', shape: [rows], values: new Float32Array(rows).fill(1) } }));
  }), /holds a "weights" tensor \(a newer model2vec format than Hearth reads\)/);
  await assert.rejects(embedOne(join(tmpdir(), 'hearth-no-such-model-folder'), 'x'), hasCode('embedding.model_missing'));
});

async function kiln(notes: Record<string, string>): Promise<string> {
  const root = tmp('kiln');
  for (const [path, text] of Object.entries(notes)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const NOTES = {
  'pets.md': '# Pets\n\nThe cat and the dog sleep in the garden.\n',
  'kitchen.md': '# Kitchen\n\nCoffee, bread and tea for breakfast.\n',
  'nature/rivers.md': '# Rivers\n\nThe river runs from the mountain to the city.\n',
};

test('static embedder through a real KilnIndex (in the embedding worker): indexed, searched, and reported with its dimensions', async () => {
  const model = generateStaticModel(join(tmp('index'), 'model'));
  const root = await kiln(NOTES);
  const index = new KilnIndex({ kilnRoot: root, embedding: EmbeddingSchema.parse({ model }), processing: ProcessingSchema.parse({}), embedderDeps: { env: {} }, log: silentLogger });
  try {
    const report = await index.update();
    assert.equal(report.notes, 3);
    assert.deepEqual(report.embedder, { provider: 'local_cpu', model, dimensions: 256 });
    const hits = await index.search('a cat in the garden', { mode: 'semantic', limit: 3 });
    assert.equal(hits[0].path, 'pets.md');
    assert.deepEqual(await index.counts(), { notes: 3, chunks: 3 });
    assert.equal(await index.dimensions(), 256);
  } finally {
    await index.dispose();
  }
});

test('a change of model (the old transformer default to the static one) re-embeds every note, saying why; vectors never mix', async () => {
  const root = await kiln(NOTES);
  const open = (model: string) => new KilnIndex({ kilnRoot: root, embedding: EmbeddingSchema.parse({ model }), processing: ProcessingSchema.parse({}), embedderDeps: { env: {}, inProcess: true }, log: silentLogger });
  const old = open(tinyModelDir());
  const first = await old.update();
  await old.dispose();
  assert.equal(first.embedder?.dimensions, 384);
  const staticModel = generateStaticModel(join(tmp('switch'), 'model'));
  const next = open(staticModel);
  try {
    const report = await next.update();
    assert.equal(report.embedded, 3, 'every note embedded again');
    assert.match(report.rebuilt ?? '', /built with local_cpu\/.*tiny-model \(384 dims\), not local_cpu\/.*model \(256 dims\); it must be rebuilt/);
    assert.deepEqual(report.embedder, { provider: 'local_cpu', model: staticModel, dimensions: 256 });
    assert.equal((await next.search('river mountain', { mode: 'semantic', limit: 1 }))[0].path, 'nature/rivers.md');
  } finally {
    await next.dispose();
  }
});

test('a broken static model fails the index run with its typed error, and the index is left as it was', async () => {
  const root = await kiln(NOTES);
  const model = brokenModel((d) => truncateSync(join(d, 'model.safetensors'), 1000));
  const index = new KilnIndex({ kilnRoot: root, embedding: EmbeddingSchema.parse({ model }), processing: ProcessingSchema.parse({}), embedderDeps: { env: {} }, log: silentLogger });
  try {
    await assert.rejects(index.update(), (e: unknown) => hasCode('embedding.model_invalid')(e) && (e as Error).message.includes(join(model, 'model.safetensors')));
  } finally {
    await index.dispose();
  }
});
