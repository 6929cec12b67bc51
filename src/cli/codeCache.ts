/**
 * V8's code cache for the CLI's own chunks. Node 20 compiles every module a command loads on every
 * start (`hearth search` loads ~700 KB of them); Node 22's `module.enableCompileCache()` is the
 * built-in form of this, and Node 20 lacks it. The bytecode V8 made for a chunk during one run is
 * written when that process exits and handed back to V8 on the next start, which checks it against
 * its own version and flags and the source's length, and compiles afresh when any differs.
 *
 * Bytecode is code, so the cache is only ever read from a folder that is the user's own: created
 * 0700, and left unread (and unwritten) when it belongs to someone else or others may write to it.
 * It never lives in the kiln. The caller keys the folder by the build (a new build never reads an
 * older build's bytecode for a source of the same length) and by the command (what `hearth search`
 * compiles is not what `hearth index` does).
 */
import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';

export interface CodeCacheOptions {
  /** The folder holding the chunks (dist/); a `.cjs` file from anywhere else compiles as usual. */
  codeDir: string;
  /** The code cache's folder in the user's cache folder. */
  cacheRoot: string;
  /** This build of the chunks, on this Node: a folder of its own under `cacheRoot`. */
  build: string;
  /** The command this process runs: a folder of its own under the build's. */
  command: string;
}

/** Folders of other builds not written for this long are removed when this one writes. */
const STALE_BUILD_MS = 30 * 24 * 3600 * 1000;

/** What happened to each chunk, by file name; for tests and `HEARTH_CODE_CACHE=report`. */
export interface CodeCacheReport {
  /** Compiled from the cache. */
  accepted: string[];
  /** The cache was there but V8 refused it (another Node, other flags, a damaged file): written again. */
  rejected: string[];
  /** No cache yet: written at exit. */
  missing: string[];
  /** Compiled as Node does, without a cache (see `compilesWithoutCache`). */
  bypassed: string[];
  /** Cache files written at exit. */
  written: string[];
  /** Why the cache folder was not used, when it was not. */
  unusable?: string;
}

/** The cache folder's name for a command line: its command, or `_` for anything else (`--help`, a typo). */
export function commandKey(argv: readonly string[]): string {
  const command = argv[0] ?? '';
  return /^[a-z][a-z-]{0,31}$/.test(command) ? command : '_';
}

interface CompilingModule {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
}

type ModuleWrapper = (exports: unknown, require: NodeJS.Require, module: CompilingModule, filename: string, dirname: string) => unknown;

/**
 * Node's CommonJS wrapper (Module.wrap). Its head shares the chunk's first line, where a minified
 * chunk holds all its code: the first line's columns are moved back by its length, so a stack
 * trace points where Node's own compile would.
 */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_TAIL = '\n});';

/** Hooks the CommonJS loader so the chunks under `codeDir` compile from (and leave) a code cache. */
export function installCodeCache({ codeDir, cacheRoot, build, command }: CodeCacheOptions): CodeCacheReport {
  const cacheDir = join(cacheRoot, build, command);
  const report: CodeCacheReport = { accepted: [], rejected: [], missing: [], bypassed: [], written: [] };
  const unusable = whyUnusable(cacheDir);
  if (unusable) report.unusable = unusable;
  const toWrite: { script: Script; file: string }[] = [];
  const inCodeDir = codeDir.endsWith(sep) ? codeDir : codeDir + sep;
  const mappedByNode = sourceMapsEnabled();
  const prototype = Module.prototype as unknown as CompilingModule;
  const compile = prototype._compile;
  prototype._compile = function compileFromCache(this: CompilingModule, content: string, filename: string) {
    if (!filename.startsWith(inCodeDir) || !filename.endsWith('.cjs')) return compile.call(this, content, filename);
    const name = basename(filename);
    if (mappedByNode || compilesWithoutCache(content)) {
      report.bypassed.push(name);
      return compile.call(this, content, filename);
    }
    const file = join(cacheDir, `${name}.v8`);
    const cachedData = unusable ? undefined : readCache(file);
    const script = new Script(`${WRAPPER_HEAD}${content}${WRAPPER_TAIL}`, { filename, cachedData, columnOffset: -WRAPPER_HEAD.length });
    if (cachedData === undefined) report.missing.push(name);
    else if (script.cachedDataRejected) report.rejected.push(name);
    else report.accepted.push(name);
    if (!unusable && (cachedData === undefined || script.cachedDataRejected)) toWrite.push({ script, file });
    const wrapper = script.runInThisContext({ displayErrors: true }) as ModuleWrapper;
    return wrapper.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dirname(filename));
  };
  // At exit the scripts hold the bytecode of every function this run compiled, not only their top level.
  process.once('exit', () => {
    if (toWrite.length === 0 || rootInAnotherUsersFolder(cacheDir)) return;
    writeCaches(toWrite, cacheDir, report);
    removeStaleBuilds(cacheRoot, build);
  });
  return report;
}

/**
 * A chunk that calls `import()` (an ES-module-only dependency, loaded when used) compiles as Node
 * does: a script compiled through `node:vm` answers `import()` only with an experimental loader
 * that warns on the terminal.
 */
export function compilesWithoutCache(content: string): boolean {
  return content.includes('import(');
}

/**
 * `node --enable-source-maps` (or NODE_OPTIONS): Node maps a stack trace through a module's source
 * map only for the modules its own compile saw, so the chunks compile as Node does.
 */
function sourceMapsEnabled(): boolean {
  const enabled = (process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled;
  if (enabled !== undefined) return enabled;
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--enable-source-maps');
}

/** Undefined when the folder may be read and written: absent (created 0700 at exit), or ours and private. */
function whyUnusable(dir: string): string | undefined {
  let stat;
  try {
    // lstat: a link in the folder's place is not followed to wherever it points.
    stat = lstatSync(dir);
  } catch {
    return undefined;
  }
  if (!stat.isDirectory()) return `${dir} is not a folder`;
  return whyNotOurs(stat, dir);
}

/**
 * The cache file's bytes when it is a plain file of ours that only we may write. The folder was
 * checked at start, but a folder above it that another user may write to lets them put a folder
 * of their own in its place meanwhile, and V8 runs bytecode made from any source of the same
 * length as ours: what is opened is checked, not the path.
 */
function readCache(file: string): Buffer | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a pipe in the file's place is not waited on (it is then refused as no plain file).
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    return stat.isFile() && !whyNotOurs(stat, file) ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Why a file or folder may hold what someone else wrote: another user's, or others may write to it. */
function whyNotOurs(stat: Stats, path: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return `${path} belongs to another user`;
  if (stat.mode & 0o022) return `others may write to ${path}`;
  return undefined;
}

function writeCaches(toWrite: { script: Script; file: string }[], cacheDir: string, report: CodeCacheReport): void {
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    // mkdir's mode is filtered by the umask; a private folder is the condition for reading it back.
    chmodSync(cacheDir, 0o700);
  } catch {
    return;
  }
  for (const { script, file } of toWrite) {
    // Beside the file, then renamed: a run starting meanwhile reads the old cache or the new one.
    const partial = `${file}.${process.pid}.partial`;
    try {
      // 'wx': a new file, never one (or a link) left at that name.
      writeFileSync(partial, script.createCachedData(), { mode: 0o600, flag: 'wx' });
      renameSync(partial, file);
      report.written.push(basename(file, '.v8'));
    } catch {
      rmSync(partial, { force: true });
    }
  }
}

/**
 * Root writing where the nearest folder that exists is another user's: `sudo hearth …` keeping the
 * user's HOME (as macOS does). The folders it made would be root's, and the user's own runs could
 * then write nothing there (this cache, fetched models, the model catalog).
 */
function rootInAnotherUsersFolder(dir: string): boolean {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return false;
  for (let at = dir; ; at = dirname(at)) {
    try {
      return lstatSync(at).uid !== 0;
    } catch {
      if (dirname(at) === at) return false;
    }
  }
}

/** An upgrade leaves the old build's folder behind: gone once no run has written to it for a month. */
function removeStaleBuilds(cacheRoot: string, build: string): void {
  try {
    for (const entry of readdirSync(cacheRoot, { withFileTypes: true })) {
      if (entry.name === build || !entry.isDirectory()) continue;
      const folder = join(cacheRoot, entry.name);
      if (Date.now() - statSync(folder).mtimeMs > STALE_BUILD_MS) rmSync(folder, { recursive: true, force: true });
    }
  } catch {
    // A cache: what cannot be tidied now is tidied by a later run.
  }
}
