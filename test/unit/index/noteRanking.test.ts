import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoteBm25 } from '../../../src/core/index/words/noteBm25';
import { sectionRelevance } from '../../../src/core/index/words/noteBm25Scoring';
import { makeSnippet } from '../../../src/core/index/search/snippet';
import type { ChunkRecord } from '../../../src/core/index/store/vectorStore';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fold, searchTerms, termProbe, tokenize } from '../../../src/core/index/words/tokenize';

let ids = 0;
const chunk = (notePath: string, text: string, title = notePath.replace(/\.md$/, ''), headingPath: string[] = [], startLine = 1): ChunkRecord => ({
  id: `${notePath}#${ids++}`,
  notePath,
  title,
  headingPath,
  startLine,
  endLine: startLine + text.split('\n').length - 1,
  text,
  contentHash: 'h',
});

const FILLER = ['river', 'stone', 'window', 'paper', 'lamp', 'cloud', 'orange', 'violin', 'carpet', 'ladder', 'pencil', 'garden'];
const filler = (n: number, seed = 0) => Array.from({ length: n }, (_, i) => FILLER[(i * 7 + seed) % FILLER.length]).join(' ');

test('tokenize: lower-cased words of any script, accents folded, CJK as character pairs, emoji dropped', () => {
  assert.deepEqual(tokenize('Café au-lait, 2 Tassen; ÜBER straße #tag'), ['cafe', 'au', 'lait', '2', 'tassen', 'uber', 'straße', 'tag']);
  assert.deepEqual(tokenize('日本語のメモ'), ['日本', '本語', '語の', 'のメ', 'メモ']);
  assert.deepEqual(tokenize('한국어 x'), ['한국', '국어', 'x']);
  assert.deepEqual(tokenize('🍅🔥'), []);
});

test('search terms: English words by their stem, other scripts, numbers and short words as written', () => {
  assert.deepEqual(searchTerms('Conversions converting converted'), ['convers', 'convert', 'convert']);
  assert.deepEqual(searchTerms('Generates generated'), searchTerms('generate generating'));
  assert.deepEqual(searchTerms('Straße café 日本 2024 api'), ['straße', 'cafe', '日本', '2024', 'api']);
});

test('term probes: every word of the dev-set kiln (and the stemmer\'s hard cases) folded contains the probe of its search term', () => {
  const dir = 'test/eval/kiln';
  const words = new Set<string>(['possibly', 'sensibility', 'hoping', 'relational', 'valency', 'ponies', 'ties', 'happily', 'generalization', 'café', '日本語', 'Straße', '2024']);
  for (const name of readdirSync(dir)) for (const word of tokenize(readFileSync(join(dir, name), 'utf8'))) words.add(word);
  assert.ok(words.size > 5_000, `only ${words.size} distinct words`);
  const misses: string[] = [];
  for (const word of words) {
    const folded = fold(word);
    for (const term of searchTerms(word)) if (!folded.includes(termProbe(term))) misses.push(`${word} → ${term} (probe ${termProbe(term)})`);
  }
  assert.deepEqual(misses, []);
  // The probe rules texts out: it is not empty for a long term.
  assert.equal(termProbe('highlight'), 'highlig');
  assert.equal(termProbe('日本'), '日本');
});

test('section relevance: a section holding none of the query\'s words scores 0, one holding another form of a word scores above 0', () => {
  const notes = [[chunk('a.md', 'Nothing to see here at all.', 'A', ['Intro']), chunk('a.md', 'It generates source maps quickly.', 'A', ['Maps'], 5)], [chunk('b.md', filler(40))]];
  const index = new NoteBm25(notes);
  const q = index.query('generating maps');
  assert.equal(index.sectionRelevance(q, notes[0][0]), 0);
  assert.ok(index.sectionRelevance(q, notes[0][1]) > 0);
});

test('section relevance: the same as BM25 over every stemmed word of the section (probe and stem shortcuts change nothing), on the dev-set kiln', () => {
  const dir = 'test/eval/kiln';
  const names = readdirSync(dir).sort().slice(0, 60);
  const notes = names.map((name) => readFileSync(join(dir, name), 'utf8').split(/\n(?=#)/).map((text, i) => chunk(name, text, name, [`Part ${i}`], i * 10 + 1)));
  const index = new NoteBm25(notes);
  const queries = (JSON.parse(readFileSync('test/eval/dev.json', 'utf8')) as { query: string }[]).slice(0, 25).map((q) => q.query);
  const avg = 120;
  let nonZero = 0;
  for (const query of [...queries, 'generating maps', 'café 日本', 'hoping happily']) {
    const q = index.query(query);
    for (const c of notes.flat()) {
      // The reference: count every stemmed word, as the index itself tokenizes notes.
      const words = searchTerms(`${c.headingPath.join(' ')} ${c.text}`);
      const counts = new Map<string, number>();
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
      const norm = 1 - 0.75 + (0.75 * words.length) / avg;
      let score = 0;
      for (const term of q.terms) {
        const tf = (counts.get(term.text) ?? 0) / norm;
        if (tf > 0) score += (term.idf * tf) / (1.2 + tf);
      }
      const expected = q.norm === 0 ? 0 : score / q.norm;
      const actual = sectionRelevance(q, c, avg, 0.75);
      if (expected > 0) nonZero++;
      assert.ok(Math.abs(actual - expected) < 1e-9, `${query} / ${c.id}: ${actual} ≠ ${expected}`);
    }
  }
  assert.ok(nonZero > 100, `only ${nonZero} sections matched: the comparison says little`);
});

test('ranking: a query finds a note that uses another form of its words (plural, tense)', () => {
  const notes = [
    [chunk('maps.md', 'Generates and consumes source maps for bundlers.', 'Maps')],
    [chunk('other.md', 'A producer of consumer reports, with a map.', 'Other')],
    ...Array.from({ length: 10 }, (_, i) => [chunk(`z${i}.md`, filler(50, i))]),
  ];
  const hits = new NoteBm25(notes).search('generate consumed source map', 5);
  assert.equal(hits[0]?.path, 'maps.md');
  assert.deepEqual(new NoteBm25(notes).search('generating', 5).map((h) => h.path), ['maps.md'], 'without stems "generating" matches no note');
});

test('snippets: short text whole, long text cut around the first query word on a word boundary, accents folded', () => {
  assert.equal(makeSnippet('  short\n\ntext  ', 'x'), 'short text');
  const long = `${'alpha '.repeat(100)}the needle is here ${'omega '.repeat(100)}`;
  const snippet = makeSnippet(long, 'needle', 80);
  assert.match(snippet, /^….*the needle is here.*…$/);
  assert.ok(snippet.length <= 82);
  assert.match(makeSnippet(long, 'absent', 40), /^alpha .*…$/);
  assert.match(makeSnippet(`${'alpha '.repeat(100)}un café noir ${'omega '.repeat(100)}`, 'cafe', 60), /café noir/);
});

test('ranking: a note titled with the query word beats a long note repeating it; plain BM25 over the whole text would not', () => {
  const compost = { path: 'compost.md', title: 'Compost', text: 'How to start a heap behind the shed.' };
  const diary = { path: 'diary.md', title: 'Diary', text: `${filler(300)} ${'compost '.repeat(40)} ${filler(300, 3)}` };
  const others = Array.from({ length: 20 }, (_, i) => ({ path: `other${i}.md`, title: `Other ${i}`, text: filler(80, i) }));
  const all = [compost, diary, ...others];
  assert.equal(new NoteBm25(all.map((n) => [chunk(n.path, n.text, n.title)])).search('compost', 5)[0].path, 'compost.md');
  // Plain BM25: the title is just more text of the one field (what search did before).
  const body = { title: { weight: 0, b: 0 }, headings: { weight: 0, b: 0 }, lead: { weight: 0, b: 0 }, body: { weight: 1, b: 0.75 } };
  const plain = new NoteBm25(all.map((n) => [chunk(n.path, `${n.title} ${n.text}`, '')]), body);
  assert.equal(plain.search('compost', 5)[0].path, 'diary.md', 'the test must tell the two apart');
});

test('ranking: headings and opening lines count more than a mention deep in the body; relevance is 0–1 and grows with the words matched', () => {
  const notes = [
    [chunk('a.md', '# Notes\nIntro.', 'Notes', ['Notes']), chunk('a.md', `## Sourdough starter\nFeed it daily. ${filler(40)}`, 'Notes', ['Notes', 'Sourdough starter'], 3)],
    [chunk('b.md', `# Misc\n${filler(200)} a sourdough remark ${filler(200, 5)}`, 'Misc', ['Misc'])],
    [chunk('c.md', `# Bread\nSourdough starter and flour make bread. ${filler(60)}`, 'Bread', ['Bread'])],
    ...Array.from({ length: 10 }, (_, i) => [chunk(`z${i}.md`, filler(50, i))]),
  ];
  const index = new NoteBm25(notes);
  const hits = index.search('sourdough starter', 10);
  assert.deepEqual(hits.map((h) => h.path).slice(0, 2).sort(), ['a.md', 'c.md']);
  assert.equal(hits[hits.length - 1].path, 'b.md');
  for (const h of hits) assert.ok(h.relevance > 0 && h.relevance < 1, `${h.path} ${h.relevance}`);
  const all = index.search('sourdough starter flour bread', 10)[0];
  const one = index.search('sourdough zebra quokka wombat', 10)[0];
  assert.equal(all.path, 'c.md');
  assert.ok(all.relevance > 2 * one.relevance, `${all.relevance} vs ${one.relevance}: unknown words lower the share matched`);
  assert.deepEqual(index.search('zebra', 10), []);
  assert.deepEqual(index.search('', 10), []);
});

test('note BM25 incremental: a removed note is never returned, a replaced note is found by its new words, many changes make it stale', () => {
  const notes = Array.from({ length: 100 }, (_, i) => [chunk(`n${i}.md`, `common words number ${i}`)]);
  const index = new NoteBm25(notes);
  assert.equal(index.size, 100);
  index.removeNote('n3.md');
  assert.ok(!index.search('3 number', 100).some((h) => h.path === 'n3.md'));
  assert.equal(index.size, 99);
  index.addNote([chunk('n3.md', 'brand new zanzibar text')]);
  assert.deepEqual(index.search('zanzibar', 5).map((h) => h.path), ['n3.md']);
  index.addNote([chunk('n4.md', 'common zanzibar')]);
  assert.deepEqual(index.search('zanzibar', 5).map((h) => h.path).sort(), ['n3.md', 'n4.md']);
  assert.equal(index.search('number', 200).length, 98, 'n4 replaced: its old words are gone');
  assert.equal(index.stale, false);
  for (let i = 10; i < 70; i++) index.removeNote(`n${i}.md`);
  assert.equal(index.stale, true);
});

test('note BM25 patched for one note (its postings swapped in, the rest kept) scores every query exactly as a rebuild of the same notes', () => {
  const notes = Array.from({ length: 120 }, (_, i) => [chunk(`n${i}.md`, `${FILLER[i % 12]} ${FILLER[(i * 5) % 12]} note ${i}`, `Title ${i % 7}`), chunk(`n${i}.md`, filler(8, i), undefined, ['Part'], 3)]);
  const patched = new NoteBm25(notes);
  const changed = [chunk('n17.md', 'zanzibar river lamp, rewritten entirely', 'Zanzibar'), chunk('n17.md', `${filler(20, 3)} river`, undefined, ['Part'], 3)];
  patched.addNote(changed);
  const rebuilt = new NoteBm25(notes.map((note) => (note[0].notePath === 'n17.md' ? changed : note)));
  for (const query of ['zanzibar', 'river lamp', 'note 17', 'title 3 stone', 'part orange river', 'absent words']) {
    const scores = (index: NoteBm25) => new Map(index.search(query, 200).map((h) => [h.path, h.relevance]));
    const [left, right] = [scores(patched), scores(rebuilt)];
    assert.deepEqual([...left.keys()].sort(), [...right.keys()].sort(), query);
    for (const [path, relevance] of left) assert.ok(Math.abs(relevance - right.get(path)!) < 1e-12, `${query}: ${path} ${relevance} vs ${right.get(path)}`);
  }
});

test('note BM25: a query asked again answers from its last scoring until a note changes; then the change shows', () => {
  const notes = Array.from({ length: 50 }, (_, i) => [chunk(`n${i}.md`, `common words number ${i}`)]);
  const index = new NoteBm25(notes);
  const q = index.query('zanzibar common');
  const before = index.relevances(q, 60, []);
  assert.equal(before.has('z.md'), false);
  assert.deepEqual(index.relevances(q, 60, []), before, 'the same query object, the same answer');
  // The same query object after a note is added, replaced or removed: scored again, not the kept scores.
  index.addNote([chunk('z.md', 'zanzibar zanzibar common')]);
  const added = index.relevances(q, 60, []);
  assert.ok(added.has('z.md'), 'a note added after the first scoring is found');
  assert.equal([...added.keys()][0], 'z.md');
  index.addNote([chunk('z.md', 'nothing of the query here')]);
  assert.equal(index.relevances(q, 60, []).has('z.md'), false, 'replaced');
  index.removeNote('n7.md');
  assert.equal(index.relevances(q, 60, ['n7.md']).has('n7.md'), false, 'removed');
  // Another depth, or vector-side paths asked with it, from the same scoring.
  assert.equal(index.relevances(q, 5, []).size, 5);
  assert.ok(index.relevances(q, 5, ['n40.md']).has('n40.md'));
});

test('note BM25 sliced build: the event loop runs between slices, and the result equals the one-go build; abort stops it', async () => {
  const notes = Array.from({ length: 600 }, (_, i) => [chunk(`n${i}.md`, `${FILLER[i % 12]} ${FILLER[(i * 5) % 12]} note ${i}`), chunk(`n${i}.md`, filler(5, i), undefined, ['Part'], 3)]);
  let ticks = 0;
  let ticker: NodeJS.Immediate | undefined;
  const tick = () => {
    ticks++;
    ticker = setImmediate(tick);
  };
  ticker = setImmediate(tick);
  const sliced = await NoteBm25.build(notes, { sliceSteps: 50, sliceMs: Infinity });
  clearImmediate(ticker);
  assert.ok(ticks >= 10, `only ${ticks} event loop turns during the build`);
  const whole = new NoteBm25(notes);
  for (const query of ['river', 'stone lamp', 'note 17', 'part orange', 'absent']) assert.deepEqual(sliced.search(query, 20), whole.search(query, 20), query);
  const controller = new AbortController();
  const aborted = NoteBm25.build(notes, { sliceSteps: 50, signal: controller.signal });
  controller.abort();
  await assert.rejects(aborted);
});
