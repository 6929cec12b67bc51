import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TermDictionary } from '../../../src/core/index/words/termDictionary';
import { TermList } from '../../../src/core/index/words/termList';

const TERMS = Array.from({ length: 25_000 }, (_, i) => `term${i}`);

test('term dictionary: a loaded term list answers lookups by id before and after it is mapped, and in every way of mapping it', async () => {
  const scanned = new TermDictionary(TermList.of(TERMS));
  assert.equal(scanned.size, TERMS.length);
  assert.equal(scanned.get('term0'), 0);
  assert.equal(scanned.get('term24999'), 24_999);
  assert.equal(scanned.get('nope'), undefined);
  // Past a few lookups the list is mapped; the answers stay the same.
  for (let i = 0; i < 100; i++) assert.equal(scanned.get(`term${i * 97}`), i * 97);
  assert.equal(scanned.get('nope'), undefined);

  const sliced = new TermDictionary(TermList.of(TERMS));
  await sliced.mapInSlices();
  assert.deepEqual([...sliced.entries()].slice(0, 3), [['term0', 0], ['term1', 1], ['term2', 2]]);
  assert.equal(sliced.get('term12345'), 12_345);

  // A new term after a loaded list takes the next id; existing terms keep theirs.
  const added = new TermDictionary(TermList.of(TERMS));
  assert.equal(added.idOf('term7'), 7);
  assert.equal(added.idOf('fresh'), TERMS.length);
  assert.equal(added.size, TERMS.length + 1);
  assert.deepEqual([...added.keys()].slice(-2), ['term24999', 'fresh']);
});

test('term dictionary: a term added while the list is mapped in slices is kept (the map made for it wins)', async () => {
  const dictionary = new TermDictionary(TermList.of(TERMS));
  const mapping = dictionary.mapInSlices();
  // Between two slices: adding a term maps the list at once.
  assert.equal(dictionary.idOf('fresh'), TERMS.length);
  await mapping;
  assert.equal(dictionary.get('fresh'), TERMS.length);
  assert.equal(dictionary.size, TERMS.length + 1);
});

test('term dictionary: mapping in slices stops on abort and leaves lookups working', async () => {
  const dictionary = new TermDictionary(TermList.of(TERMS));
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(dictionary.mapInSlices(controller.signal), { name: 'AbortError' });
  assert.equal(dictionary.get('term42'), 42);
});

test('term dictionary: a term listed twice (a foreign or crafted file) has one id scanned or mapped, the list is flagged, and a new term never takes an id in use', async () => {
  const listed = ['alpha', 'beta', 'alpha', 'gamma'];
  const scanned = new TermDictionary(TermList.of(listed));
  assert.equal(scanned.get('alpha'), 0);
  assert.equal(scanned.duplicates, false, 'not known before the list is mapped');
  for (const map of [(d: TermDictionary) => d.mapInSlices(), async (d: TermDictionary) => void d.entries()]) {
    const dictionary = new TermDictionary(TermList.of(listed));
    await map(dictionary);
    assert.equal(dictionary.get('alpha'), 0, 'the first listing wins, as the scan of an unmapped list finds it');
    assert.equal(dictionary.get('gamma'), 3);
    assert.equal(dictionary.duplicates, true);
    // Ids 0–3 hold postings in the file: a new term gets 4, never 3 (gamma's).
    assert.equal(dictionary.idOf('delta'), 4);
    assert.deepEqual([...dictionary.entries()], [['alpha', 0], ['beta', 1], ['gamma', 3], ['delta', 4]]);
  }
  const clean = new TermDictionary(TermList.of(['alpha', 'beta']));
  await clean.mapInSlices();
  assert.equal(clean.duplicates, false);
});

test('term dictionary: terms that are prefixes of one another, unicode and CJK terms, many lookups: whole entries only, the same answers scanned and mapped', () => {
  const listed = ['note', 'notes', 'no', '日本', '本語', 'café', 'cafe', 'e\u0301', ''];
  const dictionary = new TermDictionary(TermList.of(listed));
  const lookups = ['not', 'notes', 'note', 'n', '日', '日本', '本語', 'café', 'cafe', 'e\u0301', 'é', '', 'missing'];
  const first = lookups.map((t) => dictionary.get(t));
  assert.deepEqual(first, [undefined, 1, 0, undefined, undefined, 3, 4, 5, 6, 7, undefined, 8, undefined]);
  // Past the scans an unmapped list allows, the list is mapped: the same answers.
  for (let round = 0; round < 5; round++) assert.deepEqual(lookups.map((t) => dictionary.get(t)), first);
});
