// The review notification closes once the turn's changes are decided elsewhere (issue 29): before,
// a plain message stayed with Accept All / Reject All buttons that then did nothing. The editor's
// withProgress is played by a recorder speaking its contract (title, cancellable, a token, the
// notification open until the task settles).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/lifecycle/emitter';
import { showReviewNotice, whenNoneWaiting, type NotificationProgress } from '../../../src/vscode/changes/reviewNotice';

function notifications() {
  const shown: { title: string; message?: string; open: boolean; cancel(): void }[] = [];
  const progress: NotificationProgress = (options, task) => {
    const cancel = new Emitter<void>();
    const entry = { title: options.title, open: true, message: undefined as string | undefined, cancel: () => ((token.isCancellationRequested = true), cancel.fire()) };
    const token = { isCancellationRequested: false, onCancellationRequested: (listener: () => unknown) => cancel.event(listener) };
    shown.push(entry);
    return task({ report: (value) => (entry.message = value.message) }, token).then(() => void (entry.open = false));
  };
  return { shown, progress };
}

/** A review queue as the reviewer keeps it: pending ids per turn, an event when one is decided. */
function queue(ids: string[]) {
  const pending = new Set(ids);
  const changed = new Emitter<void>();
  return {
    pending,
    decide: (id: string) => (pending.delete(id), changed.fire()),
    decided: () => whenNoneWaiting(() => pending.size > 0, (listener) => changed.event(listener)),
  };
}

const settle = () => new Promise((done) => setImmediate(done));

test('the notice closes when the last change is decided elsewhere (the chat card), and not before', async () => {
  const { shown, progress } = notifications();
  const q = queue(['a', 'b']);
  let rejected = 0;
  const closed = showReviewNotice(progress, { title: 'kiln wants to change 2 notes', decided: q.decided(), rejectRemaining: () => rejected++ });
  assert.equal(shown.length, 1);
  assert.equal(shown[0].title, 'kiln wants to change 2 notes');
  assert.match(shown[0].message ?? '', /Accept or Reject/);
  q.decide('a');
  await settle();
  assert.equal(shown[0].open, true, 'one change still waits');
  q.decide('b');
  await closed;
  assert.equal(shown[0].open, false);
  assert.equal(rejected, 0);
});

test("the notice's Cancel rejects what still waits and closes it", async () => {
  const { shown, progress } = notifications();
  const q = queue(['a']);
  const closed = showReviewNotice(progress, { title: 't', decided: q.decided(), rejectRemaining: () => q.decide('a') });
  shown[0].cancel();
  await closed;
  assert.equal(shown[0].open, false);
  assert.equal(q.pending.size, 0);
});

test('a change already decided when the notice would show closes it at once', async () => {
  const { shown, progress } = notifications();
  await showReviewNotice(progress, { title: 't', decided: queue([]).decided(), rejectRemaining: () => assert.fail('nothing to reject') });
  assert.equal(shown[0].open, false);
});
