import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../../src/core/lifecycle/emitter';

test('every listener hears each fire, in the order they subscribed; dispose() on a subscription stops it', () => {
  const emitter = new Emitter<number>();
  const heard: string[] = [];
  const a = emitter.event((n) => heard.push(`a${n}`));
  emitter.event((n) => heard.push(`b${n}`));
  emitter.fire(1);
  a.dispose();
  a.dispose(); // twice is harmless
  emitter.fire(2);
  assert.deepEqual(heard, ['a1', 'b1', 'b2']);
});

test('the same function subscribed twice is two subscriptions, each removed on its own', () => {
  const emitter = new Emitter<void>();
  let calls = 0;
  const listener = () => void calls++;
  const first = emitter.event(listener);
  emitter.event(listener);
  emitter.fire();
  first.dispose();
  emitter.fire();
  assert.equal(calls, 3);
});

test('a listener that throws does not stop the others; the error goes to onListenerError, not to fire()', () => {
  const errors: unknown[] = [];
  const emitter = new Emitter<string>({ onListenerError: (error) => errors.push(error) });
  const heard: string[] = [];
  emitter.event(() => {
    throw new Error('broken listener');
  });
  emitter.event((value) => heard.push(value));
  assert.doesNotThrow(() => emitter.fire('x'));
  assert.deepEqual(heard, ['x']);
  assert.equal(errors.length, 1);
  assert.equal((errors[0] as Error).message, 'broken listener');
  // Without a handler the error is dropped, still without reaching the owner.
  const quiet = new Emitter<void>();
  quiet.event(() => {
    throw new Error('ignored');
  });
  assert.doesNotThrow(() => quiet.fire());
});

test('a listener added while firing first hears the next event', () => {
  const emitter = new Emitter<number>();
  const heard: string[] = [];
  emitter.event((n) => {
    heard.push(`outer${n}`);
    if (n === 1) emitter.event((m) => heard.push(`inner${m}`));
  });
  emitter.fire(1);
  assert.deepEqual(heard, ['outer1']);
  emitter.fire(2);
  assert.deepEqual(heard, ['outer1', 'outer2', 'inner2']);
});

test('a listener removed by an earlier one during a fire is not called for that event', () => {
  const emitter = new Emitter<void>();
  const heard: string[] = [];
  emitter.event(() => {
    heard.push('first');
    second.dispose();
  });
  const second = emitter.event(() => heard.push('second'));
  emitter.fire();
  emitter.fire();
  assert.deepEqual(heard, ['first', 'first']);
});

test('dispose() during a fire stops the rest of that fire and everything after; later subscriptions are ignored', () => {
  const emitter = new Emitter<void>();
  const heard: string[] = [];
  emitter.event(() => {
    heard.push('first');
    emitter.dispose();
  });
  emitter.event(() => heard.push('second'));
  emitter.fire();
  assert.deepEqual(heard, ['first']);
  assert.equal(emitter.hasListeners, false);
  const late = emitter.event(() => heard.push('late'));
  emitter.fire();
  late.dispose();
  assert.deepEqual(heard, ['first']);
});
