// A process that turns the code cache on (src/cli/codeCache.ts) and requires one file, as dist/cli.js
// does; prints `{value, report}` at exit. Run by codeCache.test.ts: node --import tsx codeCacheChild.ts CODE_DIR CACHE_ROOT ENTRY
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { installCodeCache } from '../../../src/cli/codeCache';

const [codeDir, cacheRoot, entry] = process.argv.slice(2);
// tsx turns Node's source maps on for itself; dist/cli.js runs on a plain node, where they are off unless asked for.
if (!process.execArgv.includes('--enable-source-maps')) process.setSourceMapsEnabled(false);
const report = installCodeCache({ codeDir, cacheRoot, build: 'build-1', command: 'search' });
const loaded = createRequire(join(codeDir, 'loader.cjs'))(entry) as { value: () => unknown };
void Promise.resolve(loaded.value()).then((value) => {
  // After the cache's own exit handler: `written` is filled in by then.
  process.once('exit', () => process.stdout.write(JSON.stringify({ value, report })));
});
