// What the editor's index says (src/vscode/index/indexMessages.ts): "Hearth: Check Index" (what the
// index holds, and a run under way with its count when the indexer has reported one), the status
// item, and what a run did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkIndexMessage, describeRun, statusItemText } from '../../../src/vscode/index/indexMessages';

const facts = { notes: 40, chunks: 512, providerType: 'cloud_b', model: 'embed-1' };

test('Check Index: the notes, chunks and model; a run under way with its count, or without one while the kiln is scanned', () => {
  const ready = checkIndexMessage(facts, { kind: 'ready', notes: 40, chunks: 512 });
  assert.equal(ready.empty, false);
  assert.match(ready.text, /^Hearth: the index holds 40 notes \(512 chunks\), embedded with cloud_b \/ embed-1\. /);
  const counting = checkIndexMessage(facts, { kind: 'indexing', notes: { done: 32, total: 557 } });
  assert.match(counting.text, /the index holds 40 notes \(512 chunks\) \(indexing now: 32 of 557 notes\), embedded with/);
  const scanning = checkIndexMessage(facts, { kind: 'indexing', message: 'Scanning the kiln…' });
  assert.match(scanning.text, /\(512 chunks\) \(indexing now\), embedded/);
  const sized = checkIndexMessage({ ...facts, providerType: 'local_cpu', model: 'minishlab/potion-base-8M', dimensions: 256 }, { kind: 'ready', notes: 40, chunks: 512 });
  assert.match(sized.text, /embedded with local_cpu \/ minishlab\/potion-base-8M \(256 dimensions\)\. /);
  const one = checkIndexMessage({ ...facts, notes: 1, chunks: 1 }, { kind: 'indexing', notes: { done: 0, total: 1 } });
  assert.match(one.text, /holds 1 note \(1 chunk\) \(indexing now: 0 of 1 note\)/);
});

test('Check Index: an empty index says how to build it, with the run under way if there is one', () => {
  const empty = checkIndexMessage({ ...facts, notes: 0, chunks: 0 }, { kind: 'indexing', notes: { done: 3, total: 40 } });
  assert.deepEqual(empty, { text: 'Hearth: the index is empty (indexing now: 3 of 40 notes). Build it with "Hearth: Reindex".', empty: true });
  assert.equal(checkIndexMessage({ ...facts, notes: 0, chunks: 0 }, { kind: 'ready', notes: 0, chunks: 0 }).text, 'Hearth: the index is empty. Build it with "Hearth: Reindex".');
});

test('status item: each state in words, warnings coloured; a run shows its message or its count', () => {
  assert.deepEqual(statusItemText({ kind: 'off', reason: 'no folder is open' }), { text: '$(database) Index: off', tooltip: 'Hearth index: no folder is open', warning: false });
  assert.equal(statusItemText({ kind: 'indexing' }).text, '$(sync~spin) Indexing');
  assert.equal(statusItemText({ kind: 'indexing', notes: { done: 3, total: 40 } }).text, '$(sync~spin) Indexing 3 of 40 notes');
  assert.equal(statusItemText({ kind: 'indexing', message: 'Downloading the model', notes: { done: 3, total: 40 } }).text, '$(sync~spin) Indexing Downloading the model');
  assert.match(statusItemText({ kind: 'ready', notes: 40, chunks: 512 }).tooltip, /^Hearth index: 40 notes, 512 chunks\. Click to search\.$/);
  assert.match(statusItemText({ kind: 'ready', notes: 40, chunks: 512, unfinished: 'cancelled' }).tooltip, /incomplete: the last indexing was cancelled; "Hearth: Reindex" finishes it/);
  assert.deepEqual(statusItemText({ kind: 'unreachable', message: 'db down' }), { text: '$(debug-disconnect) Index unreachable', tooltip: 'Hearth index: db down', warning: true });
  assert.equal(statusItemText({ kind: 'error', message: 'boom' }).warning, true);
});

test('a run in one line: what was embedded, removed, skipped; nothing to do; cancelled', () => {
  const report = { notes: 3, chunks: 9, embedded: 4, embeddedNotes: 2, removed: 1, skipped: [], problems: [], seconds: 0.42, cancelled: false, unchanged: 1 } as unknown as Parameters<typeof describeRun>[0];
  assert.equal(describeRun(report), 'embedded 4 chunks of 2 notes, 1 removed (3 notes, 0.4 s).');
  assert.equal(describeRun({ ...report, embedded: 0, embeddedNotes: 0, removed: 0 }), 'the index is up to date; nothing to embed (3 notes, 0.4 s).');
  assert.equal(describeRun({ ...report, cancelled: true, embedded: 0, embeddedNotes: 0, removed: 0 }), 'indexing cancelled; nothing embedded (3 notes, 0.4 s).');
});
