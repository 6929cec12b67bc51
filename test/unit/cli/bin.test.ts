// The built `hearth` bin (dist/cli.js, from `npm run build`): a node shebang, executable, and every
// command listed by `hearth --help` answers its own --help. Skipped before the first build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve('dist/cli.js');

test('dist/cli.js: shebang, executable, every command has --help', { skip: !existsSync(BIN) && 'run npm run build first' }, () => {
  assert.equal(readFileSync(BIN, 'utf8').split('\n', 1)[0], '#!/usr/bin/env node');
  if (process.platform !== 'win32') assert.ok(statSync(BIN).mode & 0o111, 'executable');
  const env = { ...process.env, XDG_CONFIG_HOME: resolve('test/fixtures/none'), XDG_CACHE_HOME: resolve('test/fixtures/none'), HEARTH_CODE_CACHE: 'off' };
  const help = execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', env });
  const commands = [...help.matchAll(/^ {2}([a-z-]+) {2,}\S/gm)].map((m) => m[1]);
  assert.ok(commands.includes('config') && commands.length >= 5, help);
  for (const command of commands) {
    const result = spawnSync(process.execPath, [BIN, command, '--help'], { encoding: 'utf8', env, timeout: 30_000 });
    assert.equal(result.status, 0, `${command} --help: ${result.stderr}`);
    assert.match(result.stdout, new RegExp(`Usage: hearth ${command}`), `${command} --help`);
  }
});

test('dist/cli.js compiles its chunks from the code cache its first run left, in the user cache folder', { skip: !existsSync(BIN) && 'run npm run build first' }, () => {
  const cache = mkdtempSync(join(tmpdir(), 'hearth-bin-cache-'));
  try {
    const env = { ...process.env, XDG_CONFIG_HOME: resolve('test/fixtures/none'), XDG_CACHE_HOME: cache, HEARTH_CODE_CACHE: 'report' };
    const report = (run: ReturnType<typeof spawnSync>) => JSON.parse(/hearth code cache: (\{.*\})/.exec(String(run.stderr))![1]) as { accepted: string[]; missing: string[]; written: string[] };
    const first = spawnSync(process.execPath, [BIN, 'config', '--help'], { encoding: 'utf8', env });
    assert.equal(first.status, 0, String(first.stderr));
    assert.ok(report(first).written.includes('cli.cjs'), String(first.stderr));
    const second = spawnSync(process.execPath, [BIN, 'config', '--help'], { encoding: 'utf8', env });
    assert.equal(second.stdout, first.stdout);
    assert.deepEqual(report(second).accepted.sort(), report(first).written.sort());
    assert.deepEqual(report(second).missing, []);
    const folders = readdirSync(join(cache, 'hearth', 'code-cache'));
    assert.equal(folders.length, 1);
    assert.ok(readdirSync(join(cache, 'hearth', 'code-cache', folders[0])).includes('config'), 'one folder per command');
    // HEARTH_CODE_CACHE=off (or 0, false, no, in any case): nothing read or written.
    for (const value of ['off', 'OFF', '0', 'false', ' No ']) {
      const off = spawnSync(process.execPath, [BIN, 'index', '--help'], { encoding: 'utf8', env: { ...env, HEARTH_CODE_CACHE: value } });
      assert.equal(off.status, 0);
      assert.doesNotMatch(off.stderr, /hearth code cache/);
      assert.equal(existsSync(join(cache, 'hearth', 'code-cache', folders[0], 'index')), false, JSON.stringify(value));
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('dist/cli.js piped into a reader that stops (hearth search … | head): no EPIPE stack trace, exit 0', { skip: !existsSync(BIN) && 'run npm run build first' }, async () => {
  const kiln = mkdtempSync(join(tmpdir(), 'hearth-bin-pipe-'));
  try {
    for (let i = 0; i < 300; i++) writeFileSync(join(kiln, `note-${i}.md`), `# Note ${i}\n${'alpha beta gamma\n'.repeat(20)}`);
    const env = { ...process.env, XDG_CONFIG_HOME: join(kiln, '.xdg'), XDG_CACHE_HOME: join(kiln, '.xdg') };
    const child = spawn(process.execPath, [BIN, 'search', 'alpha', '--mode', 'text', '--limit', '300', '--workspace', kiln], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the search writes a line.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    assert.equal(stderr, '', 'nothing on stderr');
    assert.equal(code, 0);
  } finally {
    rmSync(kiln, { recursive: true, force: true });
  }
});

test('dist/cli.js with its error output gone (hearth … 2>&1 | head): the command still ends with its own status, not a crash', { skip: !existsSync(BIN) && 'run npm run build first' }, async () => {
  const home = mkdtempSync(join(tmpdir(), 'hearth-bin-stderr-'));
  try {
    const env = { ...process.env, XDG_CONFIG_HOME: home, XDG_CACHE_HOME: home };
    // A usage error: a line on stderr (its reader gone), then status 2.
    const child = spawn(process.execPath, [BIN, 'config', '--bogus'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.destroy();
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    assert.equal(stdout, '');
    assert.equal(code, 2);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

/** Why the tests run as a user without a home folder are skipped here, if they are. */
const asHomelessUser = (!existsSync(BIN) && 'run npm run build first') || (process.getuid?.() !== 0 && 'only root can run a process as a user without a passwd entry');

/** dist/cli.js as `uid` (no passwd entry, so no home folder), with PATH and `env` only. */
function runAs(uid: number, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...args], { uid, gid: uid, cwd: tmpdir(), env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
}

test('dist/cli.js run by a user without a home folder (no HOME, no passwd entry: a container\'s arbitrary uid) still runs; the code cache goes where XDG_CACHE_HOME says, or nowhere', { skip: asHomelessUser }, () => {
  const uid = 54321;
  const cache = mkdtempSync(join(tmpdir(), 'hearth-bin-nohome-'));
  try {
    chownSync(cache, uid, uid);
    const as = (env: Record<string, string>) => runAs(uid, ['config', '--help'], env);
    const bare = as({});
    assert.equal(bare.status, 0, bare.stderr);
    assert.match(bare.stdout, /^Usage: hearth config/);
    assert.equal(bare.stderr, '');
    const withCache = as({ XDG_CACHE_HOME: cache, HEARTH_CODE_CACHE: 'report' });
    assert.equal(withCache.status, 0, withCache.stderr);
    assert.ok(/"written":\[[^\]]*"cli\.cjs"/.test(withCache.stderr), withCache.stderr);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('dist/cli.js run by a user without a home folder, with XDG_CONFIG_HOME and XDG_CACHE_HOME set: config and text search work (nothing asks for the home folder it does not need)', { skip: asHomelessUser }, () => {
  const uid = 54322;
  const root = mkdtempSync(join(tmpdir(), 'hearth-bin-nohome-xdg-'));
  try {
    const kiln = join(root, 'kiln');
    mkdirSync(kiln);
    writeFileSync(join(kiln, 'garden.md'), '# Garden\nWater the tomatoes every morning.\n');
    for (const dir of [root, kiln, join(kiln, 'garden.md')]) chownSync(dir, uid, uid);
    const env = { XDG_CONFIG_HOME: join(root, 'config'), XDG_CACHE_HOME: join(root, 'cache') };
    const as = (args: string[]) => runAs(uid, args, env);
    const config = as(['config', '--json', '--workspace', kiln]);
    assert.equal(config.status, 0, config.stderr);
    const search = as(['search', 'tomatoes', '--mode', 'text', '--json', '--workspace', kiln]);
    assert.equal(search.status, 0, search.stderr);
    assert.equal(JSON.parse(search.stdout)[0].path, 'garden.md');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
