// The lexical file's term list kept as its text (src/core/index/words/termList.ts): lookups by whole term,
// ids as the list orders them, and a text whose term count is not its header's is damage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TermList } from '../../../src/core/index/words/termList';

test('term list: whole terms only, the first listing\'s id, the same list from its text as from its terms', () => {
  const terms = ['note', 'notes', 'no', '日本', '本語', 'café', 'e\u0301', '', 'note', 'z'];
  for (const list of [TermList.of(terms), TermList.parse(terms.join('\n'), terms.length)]) {
    assert.equal(list.length, terms.length);
    assert.deepEqual([...list], terms);
    terms.forEach((term, id) => assert.equal(list.at(id), term));
    assert.equal(list.indexOf('note'), 0, 'the first listing');
    assert.equal(list.indexOf('notes'), 1);
    assert.equal(list.indexOf('no'), 2);
    assert.equal(list.indexOf('本語'), 4);
    assert.equal(list.indexOf(''), 7);
    assert.equal(list.indexOf('z'), 9, 'the last term (no newline after it)');
    for (const absent of ['not', 'ote', 'cafe', '日', 'note\nnotes', '\n', 'zz']) assert.equal(list.indexOf(absent), -1, JSON.stringify(absent));
    assert.equal(list.includes('café'), true);
  }
});

test('term list: an empty list, and a text with more or fewer terms than its header says, is damage', () => {
  const empty = TermList.parse('', 0);
  assert.equal(empty.length, 0);
  assert.equal(empty.indexOf(''), -1);
  assert.deepEqual(TermList.of([]).text, '');
  assert.equal(TermList.parse('', 1).at(0), '', 'one empty term');
  assert.throws(() => TermList.parse('a\nb', 3), /term count/);
  assert.throws(() => TermList.parse('a\nb\nc', 2), /term count/);
  assert.throws(() => TermList.parse('a\nb\n', 2), /term count/, 'a trailing newline is a third, empty term');
  assert.throws(() => TermList.parse('a', 0), /more terms/);
});

test('term list: 50 000 terms, each found at its id from the text', () => {
  const terms = Array.from({ length: 50_000 }, (_, i) => `t${i.toString(36)}`);
  const list = TermList.parse(terms.join('\n'), terms.length);
  for (let id = 0; id < terms.length; id += 997) assert.equal(list.indexOf(terms[id]), id);
  assert.equal(list.indexOf(terms[terms.length - 1]), terms.length - 1);
});
