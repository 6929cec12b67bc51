import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeProgress, indexingState, unfinishedAfter, type IndexState } from '../../../src/vscode/index/indexState';
import { SEARCH_TITLE, searchPickHeader, searchPickNotice } from '../../../src/vscode/index/searchPickNotice';
import { makeKiln, removeKiln, tinyIndex, writeNotes } from '../index/kilnIndexHelpers';

const ready: IndexState = { kind: 'ready', notes: 120, chunks: 130 };

test('a real first build: the state counts notes from before the first is embedded, and the pick says the index is incomplete until it ends', async () => {
  const notes: Record<string, string> = {};
  for (let i = 0; i < 120; i++) notes[`n${String(i).padStart(3, '0')}.md`] = `# Note ${i}\nWord${i} and more words about topic ${i % 7}.\n`;
  const root = makeKiln(notes);
  const index = tinyIndex(root, {}, { batch_size: 4 });
  try {
    // The controller's reducer over the real run's reports, as the editor folds them into its state.
    let state: IndexState = indexingState(ready, {});
    const states: IndexState[] = [state];
    const report = await index.update({
      progress: {
        report: (update) => {
          state = indexingState(state, update);
          states.push(state);
        },
      },
    });
    assert.equal(report.embeddedNotes, 120);
    assert.deepEqual(states[0], { kind: 'indexing', message: undefined, notes: undefined }, 'a run starts counting afresh, not from the last ready state');
    assert.equal(searchPickHeader(states[0]).title, `${SEARCH_TITLE} (Indexing…)`);
    const counts = states.flatMap((s) => (s.kind === 'indexing' && s.notes ? [s.notes] : []));
    assert.deepEqual(counts[0], { done: 0, total: 120 }, 'the total is known before the first (slow) group is embedded');
    assert.deepEqual(counts.at(-1), { done: 120, total: 120 });
    assert.ok(counts.every((c, i) => c.total === 120 && (i === 0 || c.done >= counts[i - 1].done)), `counts only grow: ${JSON.stringify(counts)}`);
    const midway = states.find((s) => s.kind === 'indexing' && s.notes && s.notes.done > 0 && s.notes.done < 120);
    assert.ok(midway && midway.kind === 'indexing', `a report between the first and the last note: ${JSON.stringify(counts)}`);
    const done = midway.notes!.done;
    assert.equal(searchPickHeader(midway).title, `${SEARCH_TITLE} (Indexing… ${done} of 120 notes)`);
    assert.equal(searchPickHeader(midway).placeholder, 'Search the notes indexed so far by words and meaning');
    assert.deepEqual(searchPickNotice(midway, 'hits'), { action: 'status', label: `$(sync~spin) Indexing… ${done} of 120 notes — results may be incomplete` });
    assert.deepEqual(searchPickNotice(midway, 'no-query'), searchPickNotice(midway, 'hits'), 'said as soon as the pick opens');

    // The run ended: the controller's state is ready, and the pick says nothing more than its results.
    const after: IndexState = { kind: 'ready', notes: report.notes, chunks: report.chunks };
    assert.deepEqual(searchPickHeader(after), { title: SEARCH_TITLE, placeholder: 'Search the notes by words and meaning' });
    assert.equal(searchPickNotice(after, 'hits'), undefined);
    assert.equal(searchPickNotice(after, 'no-query'), undefined);
    assert.equal(searchPickNotice(after, 'no-hits'), undefined, 'VS Code says "No matching results" itself');

    // A run with nothing to embed reports no count: never "0 of 0 notes".
    const quiet: Parameters<typeof indexingState>[1][] = [];
    await index.update({ progress: { report: (update) => void quiet.push(update) } });
    assert.deepEqual(quiet.filter((u) => u.total !== undefined), []);
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('no note indexed yet while a build runs: the pick reports the build instead of offering "Reindex now" (a second run)', () => {
  const building = indexingState({ kind: 'off', reason: 'x' }, { done: 0, total: 557 });
  assert.deepEqual(searchPickNotice(building, 'empty-index'), {
    action: 'status',
    label: '$(sync~spin) Indexing… 0 of 557 notes',
    description: 'nothing to search yet; hits appear as notes are indexed',
  });
  assert.equal(searchPickNotice(building, 'empty-index')?.action, 'status', 'accepting it starts nothing');
  for (const idle of [ready, { kind: 'error', message: 'boom' }, { kind: 'off', reason: 'not a kiln' }] satisfies IndexState[]) {
    assert.deepEqual(searchPickNotice(idle, 'empty-index'), { action: 'reindex', label: '$(sync) Reindex now', description: 'the index is empty: build it to search the notes' });
  }
});

test('no hit while indexing says the note may not be indexed yet, instead of an empty list', () => {
  const building = indexingState(ready, { message: '120 of 557 notes', done: 120, total: 557 });
  assert.deepEqual(searchPickNotice(building, 'no-hits'), {
    action: 'status',
    label: '$(sync~spin) No match in the notes indexed so far',
    description: 'indexing 120 of 557 notes — the note may not be indexed yet',
  });
});

test('a report without a count (a model download) keeps the count; a half count is no count', () => {
  let state = indexingState(ready, {});
  assert.equal(describeProgress(state.kind === 'indexing' ? state.notes : undefined), undefined, 'still scanning the kiln');
  assert.equal(searchPickNotice(state, 'hits')?.label, '$(sync~spin) Indexing… — results may be incomplete');
  state = indexingState(state, { done: 3, total: 10 });
  state = indexingState(state, { message: 'downloading model.onnx 40%' });
  assert.deepEqual(state, { kind: 'indexing', message: 'downloading model.onnx 40%', notes: { done: 3, total: 10 } });
  state = indexingState(state, { done: 7 });
  assert.deepEqual(state.kind === 'indexing' && state.notes, { done: 3, total: 10 }, 'done without total is not a count');
  assert.equal(describeProgress({ done: 0, total: 1 }), '0 of 1 note');
});

test('a build cancelled part-way leaves the pick saying the index is incomplete, with Reindex, until a run over the whole kiln ends', async () => {
  const notes: Record<string, string> = {};
  for (let i = 0; i < 120; i++) notes[`n${String(i).padStart(3, '0')}.md`] = `# Note ${i}\nWord${i} and more words about topic ${i % 7}.\n`;
  const root = makeKiln(notes);
  const index = tinyIndex(root, {}, { batch_size: 4 });
  try {
    const controller = new AbortController();
    // Cancel at the first group embedded, as the notification's Cancel does.
    const report = await index.update({ signal: controller.signal, progress: { report: (u) => u.done !== undefined && u.done > 0 && controller.abort() } });
    assert.equal(report.cancelled, true);
    assert.ok(report.notes > 0 && report.notes < 120, `part of the kiln is in: ${report.notes}`);
    let unfinished = unfinishedAfter(undefined, { wholeKiln: true, outcome: 'cancelled' });
    const state = (): IndexState => ({ kind: 'ready', notes: report.notes, chunks: report.chunks, ...(unfinished ? { unfinished } : {}) });
    assert.deepEqual(searchPickNotice(state(), 'hits'), { action: 'reindex', label: '$(sync) Indexing was cancelled — results may be incomplete', description: 'Reindex embeds only the notes still missing' });
    assert.equal(searchPickHeader(state()).title, `${SEARCH_TITLE} (the index is incomplete)`);

    // A note saved meanwhile is indexed on its own: the rest is still missing.
    writeNotes(root, { 'n000.md': '# Note 0\nChanged.\n' });
    const saved = await index.update({ paths: ['n000.md'] });
    assert.equal(saved.cancelled, false);
    unfinished = unfinishedAfter(unfinished, { wholeKiln: false, outcome: 'done' });
    assert.equal(searchPickNotice(state(), 'no-query')?.action, 'reindex', 'still incomplete after a run for one note');

    // Reindex: the whole kiln, only what is missing embedded; then the pick says nothing more.
    const rest = await index.update();
    assert.equal(rest.notes, 120);
    assert.ok(rest.embeddedNotes < 120, `only the missing notes were embedded: ${rest.embeddedNotes}`);
    unfinished = unfinishedAfter(unfinished, { wholeKiln: true, outcome: 'done' });
    assert.equal(searchPickNotice(state(), 'hits'), undefined);
    assert.equal(searchPickHeader(state()).title, SEARCH_TITLE);
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('a failed run says so above the hits, with its message and Reindex; a failed run for a few notes keeps an earlier cancel', () => {
  const failed: IndexState = { kind: 'error', message: 'cloud_b embeddings failed (HTTP 503): overloaded' };
  assert.deepEqual(searchPickNotice(failed, 'hits'), { action: 'reindex', label: '$(warning) The last index run failed — results may be incomplete', description: 'cloud_b embeddings failed (HTTP 503): overloaded' });
  assert.equal(searchPickNotice(failed, 'empty-index')?.label, '$(sync) Reindex now');
  assert.equal(unfinishedAfter('cancelled', { wholeKiln: false, outcome: 'failed' }), 'cancelled');
  assert.equal(unfinishedAfter(undefined, { wholeKiln: false, outcome: 'failed' }), undefined, 'a few saved notes failing leave the rest of the kiln as it was');
  assert.equal(unfinishedAfter(undefined, { wholeKiln: true, outcome: 'failed' }), 'failed');
  assert.equal(searchPickNotice({ kind: 'ready', notes: 3, chunks: 3, unfinished: 'failed' }, 'no-hits')?.label, '$(sync) The last indexing failed — results may be incomplete');
});

test('words only (#29): while the embedding model is not available the pick says so above the hits, with why and what to do', () => {
  const why = 'Could not fetch the embedding model "minishlab/potion-base-8M" (config.json: fetch failed); search matches words only until it is available. …';
  const failed: IndexState = { kind: 'error', message: why };
  assert.deepEqual(searchPickNotice(failed, 'hits', why), { action: 'status', label: '$(warning) Words only: the embedding model is not available', description: why });
  assert.equal(searchPickNotice(ready, 'no-hits', why)?.label, '$(warning) Words only: the embedding model is not available');
  assert.equal(searchPickHeader(failed, why).title, `${SEARCH_TITLE} (words only)`);
  assert.match(searchPickHeader(failed, why).placeholder, /by their words/);
  // Nothing typed yet: the failed run's own row; a model that answers again: no label.
  assert.equal(searchPickNotice(failed, 'no-query', why)?.label, '$(warning) The last index run failed — results may be incomplete');
  assert.equal(searchPickNotice(ready, 'hits', undefined), undefined);
  assert.equal(searchPickHeader(ready).title, SEARCH_TITLE);
});
