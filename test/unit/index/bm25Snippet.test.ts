import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bm25Index, tokenize } from '../../../src/core/index/bm25';
import { makeSnippet } from '../../../src/core/index/snippet';
import type { ChunkRecord } from '../../../src/core/index/store/vectorStore';

const chunk = (id: string, text: string, title = id, headingPath: string[] = []): ChunkRecord => ({ id, notePath: `${id}.md`, title, headingPath, startLine: 1, endLine: 2, text, contentHash: 'h' });

test('tokenize: lower-cased words and numbers of any script', () => {
  assert.deepEqual(tokenize('Café au-lait, 2 Tassen; ÜBER straße #tag'), ['café', 'au', 'lait', '2', 'tassen', 'über', 'straße', 'tag']);
});

test('BM25: the best match first, repeated words saturate, title and headings count, no shared word no hit', () => {
  const index = new Bm25Index([
    chunk('a', 'the garden the garden the garden the garden'),
    chunk('b', 'the garden has one compost heap'),
    chunk('c', 'bread and butter', 'Kitchen', ['Compost']),
    chunk('d', 'nothing relevant here'),
  ]);
  const hits = index.search('compost garden', 10);
  assert.equal(hits[0].chunk.id, 'b', 'the chunk with both words first');
  assert.deepEqual(new Set(hits.map((h) => h.chunk.id)), new Set(['a', 'b', 'c']), 'c matches through its heading');
  // Saturation: four times the word is far from four times the score of once.
  const once = new Bm25Index([chunk('x', 'garden'), chunk('y', 'other'), chunk('z', 'more')]).search('garden', 1)[0].score;
  const four = new Bm25Index([chunk('x', 'garden garden garden garden'), chunk('y', 'other'), chunk('z', 'more')]).search('garden', 1)[0].score;
  assert.ok(four > once && four < 2 * once, `${once} vs ${four}`);
  assert.ok(hits.every((h, i) => i === 0 || h.score <= hits[i - 1].score));
  assert.deepEqual(index.search('zebra', 10), []);
  assert.deepEqual(index.search('compost', 10, (c) => c.id !== 'b').map((h) => h.chunk.id), ['c']);
  assert.equal(new Bm25Index([]).search('x', 5).length, 0);
});

test('snippets: short text whole, long text cut around the first query word on a word boundary', () => {
  assert.equal(makeSnippet('  short\n\ntext  ', 'x'), 'short text');
  const long = `${'alpha '.repeat(100)}the needle is here ${'omega '.repeat(100)}`;
  const snippet = makeSnippet(long, 'needle', 80);
  assert.match(snippet, /^….*the needle is here.*…$/);
  assert.ok(snippet.length <= 82);
  assert.ok(!/^…[a-z]{1,4} /.test(snippet) || snippet.startsWith('…alpha '), 'starts on a word');
  assert.match(makeSnippet(long, 'absent', 40), /^alpha .*…$/);
});

test('BM25 incremental: a removed note is never returned, an added chunk is found, new words work, many changes make it stale', () => {
  const base = Array.from({ length: 100 }, (_, i) => chunk(`n${i}`, `common words number ${i}`));
  const index = new Bm25Index(base);
  assert.equal(index.size, 100);
  assert.equal(index.search('number', 5).length, 5);
  index.removeNote('n3.md');
  assert.ok(!index.search('3 number', 100).some((h) => h.chunk.id === 'n3'));
  assert.equal(index.size, 99);
  index.add(chunk('n3', 'brand new zanzibar text'));
  assert.deepEqual(index.search('zanzibar', 5).map((h) => h.chunk.id), ['n3']);
  index.add(chunk('extra', 'common zanzibar'));
  assert.deepEqual(index.search('zanzibar', 5).map((h) => h.chunk.id).sort(), ['extra', 'n3']);
  assert.equal(index.stale, false);
  for (let i = 10; i < 70; i++) index.removeNote(`n${i}.md`);
  assert.equal(index.stale, true);
  assert.equal(index.search('number', 200).length, 39);
});

test('BM25 sliced build: the event loop runs between slices, and the result equals the one-go build', async () => {
  const words = ['garden', 'tomato', 'basil', 'compost', 'bread', 'yeast', 'coffee', 'rain'];
  const chunks = Array.from({ length: 2000 }, (_, i) => chunk(`n${i}`, `${words[i % 8]} ${words[(i * 3) % 8]} ${words[(i * 5) % 7]} note ${i}`));
  let ticks = 0;
  let ticker: NodeJS.Immediate | undefined;
  const tick = () => {
    ticks++;
    ticker = setImmediate(tick);
  };
  ticker = setImmediate(tick);
  const before = ticks;
  // 2 steps per chunk (two passes), a slice every 100 steps: 40 returns to the event loop.
  const sliced = await Bm25Index.build(chunks, { sliceChunks: 100, sliceMs: Infinity });
  const during = ticks - before;
  clearImmediate(ticker);
  assert.ok(during >= 20, `only ${during} event loop turns during the build`);
  const whole = new Bm25Index(chunks);
  assert.equal(sliced.size, whole.size);
  for (const query of ['garden', 'tomato basil', 'note 17', 'coffee rain yeast', 'absent']) {
    assert.deepEqual(sliced.search(query, 20), whole.search(query, 20), query);
  }
  // An abort between slices stops the build.
  const controller = new AbortController();
  const aborted = Bm25Index.build(chunks, { sliceChunks: 100, signal: controller.signal });
  controller.abort();
  await assert.rejects(aborted);
});
