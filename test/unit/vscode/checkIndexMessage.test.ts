// "Hearth: Check Index" in words (src/vscode/index/checkIndexMessage.ts): what the index holds, and a
// run under way with its count when the indexer has reported one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkIndexMessage } from '../../../src/vscode/index/checkIndexMessage';

const facts = { notes: 40, chunks: 512, providerType: 'cloud_b', model: 'embed-1' };

test('Check Index: the notes, chunks and model; a run under way with its count, or without one while the kiln is scanned', () => {
  const ready = checkIndexMessage(facts, { kind: 'ready', notes: 40, chunks: 512 });
  assert.equal(ready.empty, false);
  assert.match(ready.text, /^Hearth: the index holds 40 notes \(512 chunks\), embedded with cloud_b \/ embed-1\. /);
  const counting = checkIndexMessage(facts, { kind: 'indexing', notes: { done: 32, total: 557 } });
  assert.match(counting.text, /the index holds 40 notes \(512 chunks\) \(indexing now: 32 of 557 notes\), embedded with/);
  const scanning = checkIndexMessage(facts, { kind: 'indexing', message: 'Scanning the kiln…' });
  assert.match(scanning.text, /\(512 chunks\) \(indexing now\), embedded/);
  const one = checkIndexMessage({ ...facts, notes: 1, chunks: 1 }, { kind: 'indexing', notes: { done: 0, total: 1 } });
  assert.match(one.text, /holds 1 note \(1 chunk\) \(indexing now: 0 of 1 note\)/);
});

test('Check Index: an empty index says how to build it, with the run under way if there is one', () => {
  const empty = checkIndexMessage({ ...facts, notes: 0, chunks: 0 }, { kind: 'indexing', notes: { done: 3, total: 40 } });
  assert.deepEqual(empty, { text: 'Hearth: the index is empty (indexing now: 3 of 40 notes). Build it with "Hearth: Reindex".', empty: true });
  assert.equal(checkIndexMessage({ ...facts, notes: 0, chunks: 0 }, { kind: 'ready', notes: 0, chunks: 0 }).text, 'Hearth: the index is empty. Build it with "Hearth: Reindex".');
});
