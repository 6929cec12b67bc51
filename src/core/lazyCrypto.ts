import type * as Crypto from 'node:crypto';

/**
 * node:crypto on first use. Loading it costs a cold process ~2 ms, and the code a `hearth search`
 * over unchanged notes loads (the kiln's files, the index, its lock) only hashes or names a
 * temporary file when something changed. A Node before 20.16 has no getBuiltinModule: the CLI runs
 * on the user's own Node, where npm only warns about `engines`, and every index run hashes notes
 * and names its lock — there it loads the CommonJS way (the bundles' banner gives ESM a require).
 */
export function lazyCrypto(): typeof Crypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the fallback must stay lazy: an import would load it at start
  return process.getBuiltinModule?.('node:crypto') ?? (require('node:crypto') as typeof Crypto);
}
