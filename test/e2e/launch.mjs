// `npm start`: from a fresh clone, installs, builds, packages and opens Hearth on the example kiln
// (test/fixtures/example-kiln) in a real VS Code:
// - the desktop `code` when it is on PATH (`--extensionDevelopmentPath`, the checkout itself);
// - otherwise code-server (installed into .e2e/ by setup.mjs) on 127.0.0.1 with the packaged .vsix,
//   printing the URL to open and staying in the foreground until Ctrl-C, which stops it. The newest
//   editor of the matrix (VS Code 1.139, with its Chat view) unless HEARTH_E2E_VSCODE names another.
//
// Environment: PORT (default: a free port), HEARTH_LAUNCH_CODE_SERVER=1 (use code-server even when
// `code` is on PATH), HEARTH_KILN (another folder to open), HEARTH_E2E_VSCODE=1.100|1.139.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCodeServer, installFailureLine, NEWEST_EDITOR, selectedEditors } from './setup.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(repo);
const kiln = resolve(process.env.HEARTH_KILN ?? join(repo, 'test', 'fixtures', 'example-kiln'));
const say = (line) => console.log(`[hearth start] ${line}`);

function run(cmd, args) {
  const started = Date.now();
  say(`${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[hearth start] ${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
  say(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

/** What `npm run package` puts into dist/hearth.vsix (a change in any of them re-packages). */
const PACKAGED_INPUTS = ['src', 'media', 'package.json', 'package-lock.json', 'esbuild.mjs', 'tsconfig.json', 'README.md', 'CHANGELOG.md', 'walkthrough', 'schemas'];

function newestMtime(paths) {
  let newest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const info = statSync(path);
    newest = Math.max(newest, info.mtimeMs);
    if (info.isDirectory()) newest = Math.max(newest, newestMtime(readdirSync(path).map((name) => join(path, name))));
  }
  return newest;
}

/** The user's own Hearth config folder, as the CLI finds it (src/core/config/locations.ts), before this script isolates XDG. */
function userHearthConfigDir() {
  const own = process.env.HEARTH_CONFIG_DIR;
  if (own && own.startsWith('/')) return own;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'hearth');
  const xdg = process.env.XDG_CONFIG_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.config'), 'hearth');
}

async function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}


if (onPath('code') && !process.env.HEARTH_LAUNCH_CODE_SERVER) {
  run('npm', ['run', 'build', '--silent']);
  // The desktop editor runs the checkout as a development extension and returns at once.
  run('code', [`--extensionDevelopmentPath=${repo}`, kiln]);
  say(`opened ${kiln} in VS Code with Hearth from ${repo}`);
  process.exit(0);
}

let editor = NEWEST_EDITOR;
try {
  if (process.env.HEARTH_E2E_VSCODE) editor = selectedEditors()[0];
} catch (error) {
  console.error(`[hearth start] ${error.message}`);
  process.exit(2);
}
// A warm start re-packages only when something that goes into the .vsix is newer than it.
const vsix = join(repo, 'dist', 'hearth.vsix');
if (existsSync(vsix) && newestMtime(PACKAGED_INPUTS.map((p) => join(repo, p))) <= statSync(vsix).mtimeMs) say('dist/hearth.vsix is up to date with the sources: not packaged again');
else run('npm', ['run', 'package', '--silent']);
let codeServer;
try {
  codeServer = ensureCodeServer({ editor });
} catch (error) {
  // One line that says what failed and what to do (the installer's own output is above).
  console.error(`[hearth start] ${installFailureLine(error, editor)} (Or install VS Code desktop, so that \`code\` is on PATH.)`);
  process.exit(1);
}
// Scratch state of this editor (settings, installed extension, Hearth's global config) stays in
// .e2e/launch-<editor>/, never in the user's home directory; it survives between runs (one per
// editor: an older VS Code must not open the newer one's user data).
const state = join(repo, '.e2e', `launch-${editor}`);
// Hearth itself reads the user's own global config (HEARTH_CONFIG_DIR), the file the CLI reads too:
// a provider set up once works in both. code-server's own data stays isolated in the XDG folders.
const env = {
  ...process.env,
  HEARTH_CONFIG_DIR: userHearthConfigDir(),
  XDG_CONFIG_HOME: join(state, 'xdg-config'),
  XDG_DATA_HOME: join(state, 'xdg-data'),
  XDG_CACHE_HOME: join(state, 'xdg-cache'),
};
say(`Hearth's global config: ${join(env.HEARTH_CONFIG_DIR, 'config.toml')} (the same file as the hearth CLI's)`);
const dirs = ['--user-data-dir', join(state, 'user'), '--extensions-dir', join(state, 'extensions')];
const settings = join(state, 'user', 'User', 'settings.json');
if (!existsSync(settings)) {
  // First run only (later changes are the user's): open the kiln's README, no offline gallery
  // queries, no question about the checkout's git repository around the kiln.
  mkdirSync(dirname(settings), { recursive: true });
  writeFileSync(settings, `${JSON.stringify({ 'workbench.startupEditor': 'readme', 'git.openRepositoryInParentFolders': 'never', 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false, 'telemetry.telemetryLevel': 'off' }, null, 2)}\n`);
}
const install = spawnSync(codeServer, [...dirs, '--install-extension', join(repo, 'dist', 'hearth.vsix'), '--force'], { env, encoding: 'utf8' });
if (install.status !== 0) {
  console.error(`[hearth start] installing dist/hearth.vsix into code-server failed:\n${install.stderr}${install.stdout}`);
  process.exit(1);
}
const port = process.env.PORT ? Number(process.env.PORT) : await freePort();
const child = spawn(
  codeServer,
  ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', ...dirs, kiln],
  // Its own process group: Ctrl-C ends code-server and everything it started, together.
  { env, stdio: ['ignore', 'inherit', 'inherit'], detached: true },
);

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  say(`${signal}: stopping code-server`);
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  // A stuck tree gets SIGKILL after 10 s.
  setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
    process.exit(1);
  }, 10_000).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
child.on('exit', (code, signal) => {
  // Whatever of the group is still running (extension host, tool servers) ends with it.
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // the group is gone
  }
  if (!stopping) console.error(`[hearth start] code-server exited (${code ?? signal})`);
  process.exit(stopping ? 0 : (code ?? 1));
});

const started = Date.now();
let healthy = false;
while (Date.now() - started < 60_000 && !stopping && !healthy) {
  healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
  if (!healthy) await new Promise((r) => setTimeout(r, 250));
}
if (!healthy && !stopping) say(`code-server did not answer on port ${port} within 60 s; its output is above`);
if (!stopping) {
  say(`Hearth is running in code-server (VS Code ${editor}). Open this URL in a browser on this machine:`);
  console.log(`\n    http://127.0.0.1:${port}/?folder=${encodeURIComponent(kiln)}\n`);
  say('In the editor: the Hearth flame in the Activity Bar (left) opens the Chat; the status bar shows the model;');
  say('Ctrl+Shift+P then "Hearth:" lists every command. Try: ask the chat about basil, "Hearth: Semantic Search", "Hearth: Switch Model".');
  say('Press Ctrl-C to stop.');
}
