// Installs code-server (a real VS Code served to a browser) into .e2e/code-server/, a folder with
// its own package.json so none of it becomes one of the extension's dependencies. Idempotent: a
// marker file records the installed version and a second run returns at once.
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
//
// Usage: node test/e2e/setup.mjs          (import { ensureCodeServer } from it in scripts)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const RIPGREP_TARBALL = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';
const RIPGREP_CACHE = 'vscode-ripgrep-cache-1.15.11';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const codeServerDir = join(repo, '.e2e', 'code-server');
export const codeServerBin = join(codeServerDir, 'node_modules', '.bin', 'code-server');
const marker = join(codeServerDir, '.installed-version');

// The projects inside code-server whose dependencies' install scripts its postinstall runs.
const NESTED_PROJECTS = [join('lib', 'vscode'), join('lib', 'vscode', 'extensions')];

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  return result;
}

/** Adds `allowScripts` to a project's package.json for every package its lockfile marks as having install scripts. */
function approveInstallScripts(projectDir, lockfile, say) {
  const lock = JSON.parse(readFileSync(join(projectDir, lockfile), 'utf8'));
  const names = [...new Set(Object.entries(lock.packages ?? {}).filter(([path, entry]) => path && entry.hasInstallScript).map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)))].sort();
  const manifestPath = join(projectDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.allowScripts = Object.fromEntries(names.map((name) => [name, true]));
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  say(`approved install scripts in ${projectDir.slice(codeServerDir.length + 1) || '.'}: ${names.join(', ') || 'none'}`);
}

export function codeServerInstalled() {
  return existsSync(marker) && readFileSync(marker, 'utf8').trim() === CODE_SERVER_VERSION && existsSync(codeServerBin);
}

/** Installs code-server when missing; returns the path of its bin. Prints what it does and how long it took. */
export function ensureCodeServer({ quiet = false } = {}) {
  const say = (line) => quiet || console.log(`[e2e setup] ${line}`);
  if (codeServerInstalled()) {
    say(`code-server ${CODE_SERVER_VERSION} already installed in ${codeServerDir}`);
    return codeServerBin;
  }
  const started = Date.now();
  if (!existsSync('/usr/bin/rg')) throw new Error('code-server needs ripgrep: apt-get install -y ripgrep (and chromium libkrb5-dev for the tests)');
  rmSync(codeServerDir, { recursive: true, force: true });
  const tmp = join(codeServerDir, '.tmp');
  const cache = join(tmp, RIPGREP_CACHE);
  mkdirSync(cache, { recursive: true });
  say(`pre-filling the @vscode/ripgrep download cache with /usr/bin/rg (${join(cache, RIPGREP_TARBALL)})`);
  run('tar', ['-czf', join(cache, RIPGREP_TARBALL), '-C', '/usr/bin', 'rg']);
  writeFileSync(join(codeServerDir, 'package.json'), `${JSON.stringify({ name: 'hearth-e2e-code-server', private: true, description: 'code-server for the Hearth end-to-end tests; not a dependency of the extension', dependencies: { 'code-server': CODE_SERVER_VERSION } }, null, 2)}\n`);
  writeFileSync(join(codeServerDir, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
  const env = { ...process.env, npm_config_unsafe_perm: 'true', npm_config_yes: 'true', TMPDIR: tmp };
  say(`npm install code-server@${CODE_SERVER_VERSION} --ignore-scripts (about a minute, ~300 MB)`);
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: codeServerDir, env });
  const packageDir = join(codeServerDir, 'node_modules', 'code-server');
  approveInstallScripts(codeServerDir, 'package-lock.json', say);
  for (const project of NESTED_PROJECTS) approveInstallScripts(join(packageDir, project), 'npm-shrinkwrap.json', say);
  say('npm rebuild: code-server\'s postinstall installs VS Code\'s own modules (about a minute)');
  run('npm', ['rebuild', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: codeServerDir, env });
  const version = spawnSync(codeServerBin, ['--version'], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: tmp, XDG_DATA_HOME: tmp } });
  if (version.status !== 0 || !version.stdout.includes(CODE_SERVER_VERSION)) {
    throw new Error(`code-server does not run after the install: ${version.stderr || version.stdout}`);
  }
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(marker, `${CODE_SERVER_VERSION}\n`);
  const installed = version.stdout.split('\n').find((line) => line.startsWith(CODE_SERVER_VERSION));
  say(`installed code-server ${installed} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return codeServerBin;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureCodeServer();
  } catch (error) {
    console.error(`[e2e setup] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
