// Note-level results through the real KilnIndex (tiny transformers.js model): grouping, sections,
// the per-chunk shape, the 0–1 score scale, and what broken or odd queries get.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SearchMode } from '../../../src/core/index/search/searchResult';
import { makeKiln, removeKiln, tinyIndex, writeNotes } from './kilnIndexHelpers';

const NOTES = {
  'garden.md': '# Garden\nTomatoes grow by the wall.\n\n## Watering\nWater the tomatoes every morning.\n\n## Pests\nSnails love tomatoes too.\n\n## Harvest\nPick tomatoes when red.\n',
  'kitchen/salad.md': '# Salad\nSliced tomatoes with basil and oil.\n',
  'kitchen/bread.md': '# Bread\nFlour, water, salt and yeast.\n',
  'travel/kyoto.md': '# 京都の旅\n日本語のメモ: 清水寺と金閣寺を見た。\n',
  'cafe.md': '# Café\nUn café crème au comptoir, 🍅 et ☕.\n',
  ...Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`misc/n${i}.md`, `# Note ${i}\nTomatoes, item ${i}, and more tomatoes.\n`])),
};

test('results are notes: one per note, best section as the hit, the others in sections; chunks keep the old shape', async () => {
  const root = makeKiln(NOTES);
  const index = tinyIndex(root);
  try {
    await index.update();
    for (const mode of ['hybrid', 'semantic', 'text'] as SearchMode[]) {
      const results = await index.search('tomatoes', { mode, limit: 10 });
      assert.equal(results.length, 10, mode);
      assert.equal(new Set(results.map((r) => r.path)).size, 10, `${mode}: ten different notes`);
      for (const r of results) {
        assert.ok(r.score >= 0 && r.score <= 1, `${mode} score ${r.score}`);
        assert.ok(Array.isArray(r.sections), mode);
        for (const s of r.sections!) assert.ok(s.score >= 0 && s.score <= 1 && s.startLine > 0 && typeof s.snippet === 'string');
      }
      assert.ok(results.every((r, i) => i === 0 || r.score <= results[i - 1].score), `${mode}: best first`);
    }
    const [garden] = (await index.search('water the tomatoes every morning', { limit: 3 })).filter((r) => r.path === 'garden.md');
    assert.deepEqual([garden.heading, garden.startLine, garden.endLine], ['Garden > Watering', 4, 5], 'the best section is the hit');
    assert.ok(garden.sections!.length >= 2, 'the other sections mentioning tomatoes are listed');
    assert.ok(!garden.sections!.some((s) => s.startLine === garden.startLine), 'the hit is not repeated in sections');
    assert.ok(garden.sections!.every((s, i) => i === 0 || s.score <= garden.sections![i - 1].score));

    const chunks = await index.search('tomatoes', { limit: 30, chunks: true });
    assert.deepEqual(Object.keys(chunks[0]).sort(), ['endLine', 'heading', 'path', 'score', 'snippet', 'startLine', 'title']);
    assert.ok(chunks.filter((c) => c.path === 'garden.md').length >= 3, 'with chunks a note comes back once per section');
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('bad and unusual queries answer or explain, never throw: empty, 10 000 characters, broken regex, CJK, emoji, accents', async () => {
  const root = makeKiln(NOTES);
  const index = tinyIndex(root);
  try {
    await index.update();
    for (const mode of ['hybrid', 'semantic', 'text'] as SearchMode[]) {
      assert.deepEqual(await index.search('', { mode }), [], `${mode}: empty`);
      assert.deepEqual(await index.search('   \n ', { mode }), [], `${mode}: blank`);
      const long = await index.search(`tomatoes ${'lorem ipsum dolor '.repeat(560)}`.slice(0, 10_000), { mode, limit: 5 });
      assert.ok(Array.isArray(long), `${mode}: a 10 000-character query answers`);
      assert.ok(long.length <= 5);
    }
    assert.ok((await index.search(`tomatoes ${'lorem ipsum '.repeat(800)}`, { limit: 5 })).some((r) => r.path === 'garden.md' || r.path.startsWith('misc/')));
    await assert.rejects(index.search('/([a-/', { mode: 'text' }), (e: { code?: string; message?: string }) => e.code === 'search.bad_query' && /regular expression/.test(e.message ?? ''));

    const kyoto = await index.search('日本語', { limit: 3 });
    assert.equal(kyoto[0]?.path, 'travel/kyoto.md', 'a CJK word inside a longer run is found');
    assert.equal((await index.search('清水寺', { mode: 'text' }))[0]?.path, 'travel/kyoto.md');
    assert.equal((await index.search('cafe creme', { limit: 3 }))[0]?.path, 'cafe.md', 'accents fold');
    assert.equal((await index.search('Café', { limit: 3 }))[0]?.path, 'cafe.md');
    const emoji = await index.search('🍅☕', { limit: 3 });
    assert.ok(Array.isArray(emoji), 'emoji only: no words, the vector side still answers');
    assert.equal((await index.search('🍅', { mode: 'text' }))[0]?.path, 'cafe.md');
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('a query embedded ahead (embedQuery, as `hearth search` overlaps it with the index run) is the vector search uses', async () => {
  const root = makeKiln(NOTES);
  const index = tinyIndex(root);
  try {
    const bread = index.embedQuery('flour water salt yeast bread');
    await index.update();
    const semantic = (queryVector?: Promise<Float32Array>) => index.search('tomatoes', { mode: 'semantic', limit: 3, ...(queryVector ? { queryVector } : {}) });
    assert.equal((await semantic(bread))[0].path, 'kitchen/bread.md', 'ranked by the vector given, not by the query text');
    assert.notEqual((await semantic())[0].path, 'kitchen/bread.md');
    const failed = Promise.reject(new Error('embedding endpoint down'));
    failed.catch(() => undefined);
    await assert.rejects(semantic(failed), /embedding endpoint down/, 'a failed request is the search error');
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('a search that reaches an index after dispose is refused (index.disposed) and reopens nothing', async () => {
  const root = makeKiln(NOTES);
  const index = tinyIndex(root);
  try {
    await index.update();
    await index.dispose();
    for (const mode of ['hybrid', 'semantic'] as SearchMode[]) {
      await assert.rejects(index.search('tomatoes', { mode }), (error: unknown) => (error as { code?: string }).code === 'index.disposed', mode);
    }
    await assert.rejects(index.update(), (error: unknown) => (error as { code?: string }).code === 'index.disposed');
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('a hybrid search whose query embedding arrives after notes changed (and another search saw them) ranks as that other search does', async () => {
  const root = makeKiln(NOTES);
  const index = tinyIndex(root);
  try {
    await index.update();
    await index.search('tomatoes', { limit: 3 });
    const query = 'zebra migration tomatoes';
    const vector = await index.embedQuery(query);
    // A query vector that says when the search waits for it: its word side is computed by then.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let waiting!: () => void;
    const waits = new Promise<void>((resolve) => (waiting = resolve));
    const held = released.then(() => vector);
    const watched = {
      then: (onVector: (v: Float32Array) => unknown, onError?: (e: unknown) => unknown) => {
        waiting();
        return held.then(onVector, onError);
      },
      catch: (onError: (e: unknown) => unknown) => held.catch(onError),
    } as unknown as Promise<Float32Array>;
    const during = index.search(query, { limit: 5, queryVector: watched });
    await waits;
    // Meanwhile a note is saved and indexed, and the editor's next search sees it.
    writeNotes(root, { 'wild/zebra.md': '# Zebra migration\nZebra migration season: the zebra herds cross the river.\n' });
    await index.update();
    const after = await index.search(query, { limit: 5, queryVector: Promise.resolve(vector) });
    assert.equal(after[0].path, 'wild/zebra.md', 'the saved note leads');
    release();
    assert.deepEqual(await during, after);
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});
