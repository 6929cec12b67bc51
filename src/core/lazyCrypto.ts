import type * as Crypto from 'node:crypto';

/**
 * node:crypto on first use. Loading it costs a cold process ~2 ms, and the code a `hearth search`
 * over unchanged notes loads (the kiln's files, the index, its lock) only hashes or names a
 * temporary file when something changed.
 */
export function lazyCrypto(): typeof Crypto {
  return process.getBuiltinModule('node:crypto');
}
