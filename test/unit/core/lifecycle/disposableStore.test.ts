import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DisposableStore } from '../../../../src/core/lifecycle/disposableStore';
import { toDisposable } from '../../../../src/core/lifecycle/disposable';

/** A member whose asynchronous end is settled by the test, so order is observed without timers. */
function gated(name: string, log: string[]) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    release,
    member: {
      async dispose() {
        log.push(`${name} start`);
        await released;
        log.push(`${name} end`);
      },
    },
  };
}

test('members end in reverse order of adding, each awaited before the next starts', async () => {
  const log: string[] = [];
  const store = new DisposableStore();
  const first = gated('first', log);
  const second = gated('second', log);
  store.add(first.member);
  store.add(toDisposable(() => void log.push('sync')));
  store.add(second.member);
  const done = store.dispose();
  let settled = false;
  void done.then(() => (settled = true));
  await new Promise(setImmediate);
  assert.deepEqual(log, ['second start'], 'the next member waits for the asynchronous one');
  second.release();
  await new Promise(setImmediate);
  assert.deepEqual(log, ['second start', 'second end', 'sync', 'first start']);
  assert.equal(settled, false, 'dispose() waits for every member');
  first.release();
  await done;
  assert.deepEqual(log, ['second start', 'second end', 'sync', 'first start', 'first end']);
});

test('a member that throws or rejects is logged and the others still end; dispose() never rejects', async () => {
  const warnings: string[] = [];
  const ended: string[] = [];
  const store = new DisposableStore({ warn: (message: string) => void warnings.push(message) });
  store.add(toDisposable(() => void ended.push('a')));
  store.add({
    dispose() {
      throw new Error('sync failure');
    },
  });
  store.add({ dispose: () => Promise.reject(new Error('async failure')) });
  store.add(toDisposable(() => void ended.push('d')));
  await store.dispose();
  assert.deepEqual(ended, ['d', 'a']);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /async failure/);
  assert.match(warnings[1], /sync failure/);
});

test('disposing twice is safe: the same promise, every member ended once', async () => {
  let ends = 0;
  const store = new DisposableStore();
  store.add({ dispose: async () => void ends++ });
  const first = store.dispose();
  const second = store.dispose();
  assert.equal(first, second);
  await Promise.all([first, second, store.dispose()]);
  assert.equal(ends, 1);
  assert.equal(store.isDisposed, true);
});

test('a member added after disposal is disposed at once (nothing escapes a store that is shutting down)', async () => {
  const store = new DisposableStore();
  await store.dispose();
  let ended = false;
  const member = toDisposable(() => void (ended = true));
  assert.equal(store.add(member), member, 'add returns the member');
  await new Promise(setImmediate);
  assert.equal(ended, true);
});

test('delete() forgets a member without ending it', async () => {
  const store = new DisposableStore();
  let ended = false;
  const member = store.add(toDisposable(() => void (ended = true)));
  store.delete(member);
  await store.dispose();
  assert.equal(ended, false);
});

test('toDisposable runs its cleanup at most once', async () => {
  let runs = 0;
  const disposable = toDisposable(() => void runs++);
  await disposable.dispose();
  await disposable.dispose();
  assert.equal(runs, 1);
});
