/**
 * The `hearth` bin (dist/cli.js): starts the query worker of a search that embeds its query (its
 * thread and the embedder's SDK then load on the other core while this one loads the CLI), turns
 * on the code cache for the CLI's chunks, then loads the CLI (dist/cli.cjs, split into chunks
 * loaded on first use) and runs it. esbuild.mjs builds it with the id of the chunks beside it
 * (HEARTH_CLI_BUILD), so one build never reads another's bytecode.
 *
 * HEARTH_CODE_CACHE=off (or 0, false, no; any case) compiles everything afresh; =report prints on
 * stderr, at exit, which chunks came from the cache.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { userCacheDir } from '../core/config/locations';
import { QUERY_WORKER_BUNDLE, startQueryWorkerThread } from '../core/index/embedders/queryWorkerThread';
import type { runCli } from './bin';
import { commandKey, installCodeCache, type CodeCacheReport } from './codeCache';
import { searchEmbedsQuery } from './commands/searchEmbedsQuery';

declare const HEARTH_CLI_BUILD: string;

/** HEARTH_CODE_CACHE values that turn the cache off: what a user troubleshooting would write. */
const OFF = new Set(['off', '0', 'false', 'no']);

function launch(): void {
  const argv = process.argv.slice(2);
  const [command, ...args] = argv;
  const queryWorker = command === 'search' && searchEmbedsQuery(args) ? startQueryWorkerThread(join(__dirname, QUERY_WORKER_BUNDLE)) : undefined;
  const mode = process.env.HEARTH_CODE_CACHE?.trim().toLowerCase();
  const cacheRoot = mode && OFF.has(mode) ? undefined : codeCacheRoot();
  let report: CodeCacheReport | undefined;
  if (cacheRoot) {
    report = installCodeCache({
      codeDir: __dirname,
      cacheRoot,
      build: `${HEARTH_CLI_BUILD}-v8-${process.versions.v8}-${process.arch}`,
      command: commandKey(argv),
    });
  }
  if (mode === 'report' && report) {
    const shown = report;
    // Registered after the cache's own exit handler, so `written` is filled in.
    process.once('exit', () => process.stderr.write(`hearth code cache: ${JSON.stringify(shown)}\n`));
  }
  // The CLI is CommonJS beside this file; a require the bundler leaves alone.
  const cli = createRequire(__filename)('./cli.cjs') as { runCli: typeof runCli };
  cli.runCli({ queryWorker });
}

/** The code cache's folder; none for a user without a home folder and no XDG_CACHE_HOME (homedir() throws), who runs without one. */
function codeCacheRoot(): string | undefined {
  try {
    return join(userCacheDir(process.env), 'code-cache');
  } catch {
    return undefined;
  }
}

launch();
