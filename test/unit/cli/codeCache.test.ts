// The CLI's code cache (src/cli/codeCache.ts) in real processes: the bytecode one run leaves is what
// the next compiles from; a damaged file, a folder others may write to, a link or a file in the
// folder's place, or a folder that cannot be made never stop a command or feed V8 foreign bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { commandKey, type CodeCacheReport } from '../../../src/cli/codeCache';
import { transformSync } from 'esbuild';
import { TSX_LOADER } from './runHearth';

const CHILD = resolve('test/unit/cli/codeCacheChild.ts');
const posixOnly = process.platform === 'win32' && 'file modes and owners are POSIX';

function fixture(): { code: string; cacheRoot: string; cacheDir: string; elsewhere: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'hearth-code-cache-'));
  const code = join(root, 'dist');
  const elsewhere = join(root, 'lib');
  mkdirSync(code);
  mkdirSync(elsewhere);
  writeFileSync(join(code, 'a.cjs'), "const { total } = require('./b.cjs');\nconst { greet } = require('../lib/c.cjs');\nexports.value = () => `${greet('cache')} ${total([1, 2, 3, 4])}`;\n");
  writeFileSync(join(code, 'b.cjs'), 'exports.total = (values) => values.reduce((sum, v) => sum + v * v, 0);\n');
  writeFileSync(join(elsewhere, 'c.cjs'), 'exports.greet = (name) => `hello ${name}`;\n');
  writeFileSync(join(code, 'lazy.cjs'), "exports.value = () => import('node:path').then((path) => path.basename('/x/y.md'));\n");
  const cacheRoot = join(root, 'cache', 'hearth', 'code-cache');
  return { code, cacheRoot, cacheDir: join(cacheRoot, 'build-1', 'search'), elsewhere, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs `body` on a fresh fixture, removed once `body` has ended, however it ended. */
async function withFixture(body: (f: ReturnType<typeof fixture>) => void | Promise<void>): Promise<void> {
  const f = fixture();
  try {
    await body(f);
  } finally {
    f.cleanup();
  }
}

function run(code: string, cacheRoot: string, entry = './a.cjs', nodeFlags: string[] = [], timeout = 60_000): { value: unknown; report: CodeCacheReport } {
  const child = spawnSync(process.execPath, [...nodeFlags, '--import', TSX_LOADER, CHILD, code, cacheRoot, entry], { encoding: 'utf8', timeout });
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stderr, '', 'nothing on stderr (no warning)');
  return JSON.parse(child.stdout) as { value: unknown; report: CodeCacheReport };
}

test('the first run writes the bytecode of its chunks; the next compiles from it, with the same result', () => {
  return withFixture((f) => {
    const first = run(f.code, f.cacheRoot);
    assert.equal(first.value, 'hello cache 30');
    assert.deepEqual(first.report.missing, ['a.cjs', 'b.cjs'], 'only the chunks of the code folder (lib/c.cjs compiles as usual)');
    assert.deepEqual(first.report.written.sort(), ['a.cjs', 'b.cjs']);
    assert.ok(statSync(join(f.cacheDir, 'a.cjs.v8')).size > 0);
    if (!posixOnly) {
      assert.equal(statSync(f.cacheDir).mode & 0o777, 0o700, 'the folder is private');
      assert.equal(statSync(join(f.cacheDir, 'a.cjs.v8')).mode & 0o777, 0o600);
    }
    const second = run(f.code, f.cacheRoot);
    assert.equal(second.value, 'hello cache 30');
    assert.deepEqual(second.report.accepted, ['a.cjs', 'b.cjs']);
    assert.deepEqual([second.report.missing, second.report.rejected, second.report.written], [[], [], []], 'nothing written again');
  });
});

test('a damaged or truncated cache file is refused by V8: the chunk compiles afresh and the file is written again', () => {
  return withFixture((f) => {
    run(f.code, f.cacheRoot);
    const good = readFileSync(join(f.cacheDir, 'b.cjs.v8'));
    writeFileSync(join(f.cacheDir, 'a.cjs.v8'), Buffer.from('not bytecode at all, but the right length?'.repeat(20)));
    writeFileSync(join(f.cacheDir, 'b.cjs.v8'), good.subarray(0, Math.floor(good.length / 2)));
    const damaged = run(f.code, f.cacheRoot);
    assert.equal(damaged.value, 'hello cache 30');
    assert.deepEqual(damaged.report.rejected, ['a.cjs', 'b.cjs']);
    assert.deepEqual(damaged.report.written.sort(), ['a.cjs', 'b.cjs']);
    assert.deepEqual(run(f.code, f.cacheRoot).report.accepted, ['a.cjs', 'b.cjs'], 'mended');
  });
});

test('a cache folder others may write to is neither read nor written', { skip: posixOnly }, () => {
  return withFixture((f) => {
    run(f.code, f.cacheRoot);
    chmodSync(f.cacheDir, 0o777);
    const shared = run(f.code, f.cacheRoot);
    assert.equal(shared.value, 'hello cache 30');
    assert.match(shared.report.unusable ?? '', /others may write to .*search$/);
    assert.deepEqual([shared.report.accepted, shared.report.written], [[], []]);
    assert.equal(statSync(f.cacheDir).mode & 0o777, 0o777, 'left as it was');
  });
});

test('a link or a file in the cache folder\'s place is not used; the command runs', () => {
  return withFixture((f) => {
    // A link to a folder holding good bytecode: still not read (lstat, never followed).
    run(f.code, f.cacheRoot);
    const real = join(f.cacheRoot, 'build-1', 'real');
    rmSync(real, { recursive: true, force: true });
    renameSync(f.cacheDir, real);
    symlinkSync(real, f.cacheDir, 'dir');
    const linked = run(f.code, f.cacheRoot);
    assert.equal(linked.value, 'hello cache 30');
    assert.match(linked.report.unusable ?? '', /is not a folder/);
    assert.deepEqual([linked.report.accepted, linked.report.written], [[], []]);
    rmSync(f.cacheDir);
    writeFileSync(f.cacheDir, 'a file');
    const file = run(f.code, f.cacheRoot);
    assert.equal(file.value, 'hello cache 30');
    assert.match(file.report.unusable ?? '', /is not a folder/);
    assert.equal(readFileSync(f.cacheDir, 'utf8'), 'a file', 'left as it was');
  });
});

test('a cache folder that cannot be made: nothing written, the command runs', () => {
  return withFixture((f) => {
    mkdirSync(join(f.cacheRoot, '..'), { recursive: true });
    writeFileSync(f.cacheRoot, 'a file where the code cache folder goes');
    const result = run(f.code, f.cacheRoot);
    assert.equal(result.value, 'hello cache 30');
    assert.deepEqual(result.report.missing, ['a.cjs', 'b.cjs']);
    assert.deepEqual(result.report.written, []);
  });
});

test('a chunk that calls import() compiles as Node does, and its import works without a warning', () => {
  return withFixture((f) => {
    const result = run(f.code, f.cacheRoot, './lazy.cjs');
    assert.equal(result.value, 'y.md');
    assert.deepEqual(result.report.bypassed, ['lazy.cjs']);
    assert.equal(existsSync(join(f.cacheDir, 'lazy.cjs.v8')), false);
  });
});

test('writing removes the folders of other builds no run has written to for a month, and only those', () => {
  return withFixture((f) => {
    const old = join(f.cacheRoot, 'build-0', 'search');
    const recent = join(f.cacheRoot, 'build-2', 'index');
    mkdirSync(old, { recursive: true });
    mkdirSync(recent, { recursive: true });
    const monthsAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    utimesSync(join(f.cacheRoot, 'build-0'), monthsAgo, monthsAgo);
    run(f.code, f.cacheRoot);
    assert.equal(existsSync(join(f.cacheRoot, 'build-0')), false);
    assert.equal(existsSync(recent), true);
    assert.equal(existsSync(join(f.cacheDir, 'a.cjs.v8')), true);
  });
});

test('each command has its own cache folder; anything else shares one', () => {
  assert.equal(commandKey(['search', 'q']), 'search');
  assert.equal(commandKey(['mcp-servers']), 'mcp-servers');
  for (const other of [[], ['--help'], ['../../x'], ['Search'], ['a'.repeat(40)], ['x/y']]) assert.equal(commandKey(other), '_', other.join(' '));
});

test('a cache folder swapped for another user\'s after the check: their bytecode (for a source of the same length) never runs', { skip: posixOnly }, () => {
  return withFixture((f) => {
    // Bytecode V8 made for another source of b.cjs's length: V8 checks the length, not the text.
    const good = readFileSync(join(f.code, 'b.cjs'), 'utf8');
    const evilCode = join(f.code, '..', 'evil');
    mkdirSync(evilCode);
    const evil = 'exports.total = () => 666;';
    writeFileSync(join(evilCode, 'b.cjs'), `${evil}${' '.repeat(good.length - evil.length - 1)}\n`);
    writeFileSync(join(evilCode, 'a.cjs'), "exports.value = () => require('./b.cjs').total([1, 2, 3, 4]);\n");
    const evilCache = join(f.code, '..', 'evil-cache');
    assert.equal(run(evilCode, evilCache).value, 666);
    const theirs = join(f.code, '..', 'theirs');
    mkdirSync(theirs);
    copyFileSync(join(evilCache, 'build-1', 'search', 'b.cjs.v8'), join(theirs, 'b.cjs.v8'));
    // Another user's file (root can make one), else one others may write to.
    if (process.getuid?.() === 0) chownSync(join(theirs, 'b.cjs.v8'), 65534, 65534);
    else chmodSync(join(theirs, 'b.cjs.v8'), 0o666);
    // The swap happens after the folder was checked, before b.cjs compiles (as a racing user's would).
    writeFileSync(join(f.elsewhere, 'swap.cjs'), `const fs = require('node:fs');\nfs.rmSync(${JSON.stringify(f.cacheDir)}, { recursive: true, force: true });\nfs.mkdirSync(${JSON.stringify(join(f.cacheDir, '..'))}, { recursive: true });\nfs.symlinkSync(${JSON.stringify(theirs)}, ${JSON.stringify(f.cacheDir)});\n`);
    writeFileSync(join(f.code, 'swapped.cjs'), "require('../lib/swap.cjs');\nconst { total } = require('./b.cjs');\nexports.value = () => total([1, 2, 3, 4]);\n");
    const swapped = run(f.code, f.cacheRoot, './swapped.cjs');
    assert.equal(swapped.value, 30, 'b.cjs ran as written, not as their bytecode says');
    assert.equal(swapped.report.accepted.includes('b.cjs'), false);
  });
});

test('a stack trace points where the error was made, on the first line too (a minified chunk is one line), from the cache or not', () => {
  return withFixture((f) => {
    const line = '"use strict";exports.value = () => { try { return fail(); } catch (error) { return error.stack.split("\\n")[1]; } }; function fail() { throw new Error("here"); }';
    writeFileSync(join(f.code, 'oneLine.cjs'), `${line}\n`);
    const column = line.indexOf('new Error') + 1;
    const first = run(f.code, f.cacheRoot, './oneLine.cjs');
    assert.deepEqual(first.report.missing, ['oneLine.cjs']);
    assert.match(String(first.value), new RegExp(`oneLine\\.cjs:1:${column}\\)$`));
    const cached = run(f.code, f.cacheRoot, './oneLine.cjs');
    assert.deepEqual(cached.report.accepted, ['oneLine.cjs']);
    assert.equal(cached.value, first.value);
  });
});

test('node --enable-source-maps: a chunk\'s stack trace names its source (the chunks then compile as Node does)', () => {
  return withFixture((f) => {
    const source = 'export function value(): string {\n  try {\n    throw new Error("here");\n  } catch (error) {\n    return (error as Error).stack!.split("\\n")[1];\n  }\n}\n';
    const built = transformSync(source, { loader: 'ts', format: 'cjs', sourcemap: 'inline', sourcefile: 'thrower.ts' });
    writeFileSync(join(f.code, 'mapped.cjs'), built.code);
    const result = run(f.code, f.cacheRoot, './mapped.cjs', ['--enable-source-maps']);
    assert.match(String(result.value), /thrower\.ts:3:11\)$/);
    assert.deepEqual([result.report.accepted, result.report.missing, result.report.written], [[], [], []]);
  });
});

test('a pipe in a cache file\'s place is not waited on: the chunk compiles afresh, the command ends, the file is written again', { skip: posixOnly }, () => {
  return withFixture((f) => {
    run(f.code, f.cacheRoot);
    rmSync(join(f.cacheDir, 'b.cjs.v8'));
    execFileSync('mkfifo', [join(f.cacheDir, 'b.cjs.v8')]);
    const piped = run(f.code, f.cacheRoot, './a.cjs', [], 20_000);
    assert.equal(piped.value, 'hello cache 30');
    assert.deepEqual(piped.report.accepted, ['a.cjs']);
    assert.deepEqual(piped.report.written, ['b.cjs']);
    assert.ok(lstatSync(join(f.cacheDir, 'b.cjs.v8')).isFile(), 'a cache file in its place again');
  });
});

test('root (sudo keeping the user\'s HOME, as macOS does) never creates the cache folder inside another user\'s folder', { skip: process.getuid?.() !== 0 && 'only root' }, () => {
  return withFixture((f) => {
    // The user's cache folder (~/.cache, ~/Library/Caches): theirs, with nothing of Hearth's yet.
    const usersCache = join(f.cacheRoot, '..', '..');
    mkdirSync(usersCache, { recursive: true });
    chownSync(usersCache, 54321, 54321);
    const result = run(f.code, f.cacheRoot);
    assert.equal(result.value, 'hello cache 30');
    assert.deepEqual(result.report.written, []);
    assert.equal(existsSync(join(usersCache, 'hearth')), false, 'no folder of root\'s that the user\'s own runs could not write to (models, the catalog)');
    // Where root's own folder is the nearest one (root's home), root keeps a cache as anyone does.
    chownSync(usersCache, 0, 0);
    assert.deepEqual(run(f.code, f.cacheRoot).report.written.sort(), ['a.cjs', 'b.cjs']);
  });
});

test('a link left at a partial file\'s name is not written through: the file it points to stays as it was', { skip: posixOnly }, async () => {
  return withFixture(async (f) => {
    run(f.code, f.cacheRoot);
    rmSync(join(f.cacheDir, 'b.cjs.v8'));
    const victim = join(f.elsewhere, 'victim.txt');
    writeFileSync(victim, 'keep me');
    // The child waits for `go` before it ends (and writes its cache), so the link is there first.
    const go = join(f.elsewhere, 'go');
    writeFileSync(join(f.code, 'waits.cjs'), `const { existsSync } = require('node:fs');\nrequire('./b.cjs');\nexports.value = () => new Promise((done) => { const t = setInterval(() => existsSync(${JSON.stringify(go)}) && (clearInterval(t), done('went')), 10); });\n`);
    const child = spawn(process.execPath, ['--import', TSX_LOADER, CHILD, f.code, f.cacheRoot, './waits.cjs'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    symlinkSync(victim, join(f.cacheDir, `b.cjs.v8.${child.pid}.partial`));
    writeFileSync(go, '');
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    assert.equal(code, 0);
    const { value, report } = JSON.parse(stdout) as { value: unknown; report: CodeCacheReport };
    assert.equal(value, 'went');
    assert.equal(readFileSync(victim, 'utf8'), 'keep me');
    assert.equal(report.written.includes('b.cjs'), false, 'not written this time; the next run does');
    assert.equal(existsSync(join(f.cacheDir, `b.cjs.v8.${child.pid}.partial`)), false, 'the link is gone');
  });
});
