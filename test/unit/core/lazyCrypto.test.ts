import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lazyCrypto } from '../../../src/core/lazyCrypto';
import { contentHash } from '../../../src/core/kiln/noteContent';

test('lazyCrypto: node:crypto through process.getBuiltinModule, and on a Node without it (before 20.16: the CLI runs on the user\'s own) the CommonJS way, not a TypeError', () => {
  const expected = createHash('sha256').update('a note').digest('hex').slice(0, 32);
  assert.equal(contentHash('a note'), expected);
  const own = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
  // Node before 20.16 has no process.getBuiltinModule.
  Object.defineProperty(process, 'getBuiltinModule', { value: undefined, configurable: true, writable: true });
  try {
    assert.equal(contentHash('a note'), expected);
    assert.equal(lazyCrypto().randomBytes(6).length, 6);
  } finally {
    if (own) Object.defineProperty(process, 'getBuiltinModule', own);
  }
  assert.equal(typeof process.getBuiltinModule, 'function');
});
