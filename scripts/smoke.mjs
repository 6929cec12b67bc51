// `npm run smoke`: a newcomer's first `npm start`, timed. Clones this repository (its committed
// HEAD) into a temp folder, runs `npm start` there (code-server, as on a machine without the desktop
// `code`) until the editor's URL answers with the workbench, stops it, then does the same again
// (the warm start: nothing to install, build or package). Prints both times and removes the clone.
// Not part of `npm test`: a cold start installs node_modules and code-server (minutes).
//
//   npm run smoke [-- --keep] [-- --share-editors]
//     --keep            leave the clone (its path is printed) with its logs, .smoke-cold.log and .smoke-warm.log
//     --share-editors   link this checkout's installed editors (.e2e/code-server*, .e2e/node-*) into the
//                       clone: the cold start then times npm install, the build and the package only
//   HEARTH_E2E_VSCODE=1.100 starts the older editor (default: the newest, as npm start does).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((a) => a !== '--keep' && a !== '--share-editors');
if (unknown.length > 0) {
  console.error(`usage: npm run smoke [-- --keep] [-- --share-editors] (unknown: ${unknown.join(' ')})`);
  process.exit(2);
}
const say = (line) => console.log(`[smoke] ${line}`);
/** How long one start may take before the smoke gives up on it. */
const LIMITS = { cold: 30 * 60_000, warm: 5 * 60_000 };

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

/** Whether the editor is usable: the workbench page of the kiln answers 200 with its HTML. */
async function workbenchAnswers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return response.ok && /<html/i.test(await response.text());
  } catch {
    return false;
  }
}

/** Ends `npm start`'s whole process group (it stops code-server on SIGINT) and waits for it. */
async function stop(child, exited) {
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // the group is gone
    }
  };
  signal('SIGINT');
  const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
  if (!done) {
    signal('SIGKILL');
    await exited;
  }
}

/** One `npm start` in the clone: seconds until the workbench URL answers (or why it did not). */
async function timedStart(clone, kind) {
  const port = await freePort();
  const kiln = join(clone, 'test', 'fixtures', 'example-kiln');
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(kiln)}`;
  const logFile = join(clone, `.smoke-${kind}.log`);
  const log = createWriteStream(logFile);
  // Hearth's global config: an empty folder of the clone's, so the user's own does not change the figures.
  const env = { ...process.env, PORT: String(port), HEARTH_LAUNCH_CODE_SERVER: '1', HEARTH_CONFIG_DIR: join(clone, '.smoke-config') };
  for (const key of Object.keys(env)) if (key.startsWith('npm_') && key !== 'npm_config_registry') delete env[key];
  const started = performance.now();
  const child = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let exitCode;
  const exited = new Promise((done) => child.on('exit', (code, signal) => done((exitCode = code ?? signal))));
  let seconds;
  while (performance.now() - started < LIMITS[kind] && exitCode === undefined) {
    if (await workbenchAnswers(url)) {
      seconds = (performance.now() - started) / 1000;
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop(child, exited);
  log.end();
  if (seconds === undefined) {
    const why = exitCode === undefined ? `no answer within ${LIMITS[kind] / 60_000} min` : `npm start exited (${exitCode}) first`;
    throw new Error(`${kind} start: ${why}; its output is in ${logFile}`);
  }
  return seconds;
}

const clone = mkdtempSync(join(tmpdir(), 'hearth-smoke-'));
let keep = args.has('--keep');
try {
  say(`git clone ${repo} ${clone}`);
  const cloned = spawnSync('git', ['clone', '--quiet', repo, clone], { stdio: 'inherit' });
  if (cloned.status !== 0) throw new Error(`git clone failed (exit ${cloned.status ?? cloned.signal})`);
  if (args.has('--share-editors')) {
    const e2e = join(repo, '.e2e');
    const shared = existsSync(e2e) ? readdirSync(e2e).filter((name) => name.startsWith('code-server') || name.startsWith('node-')) : [];
    mkdirSync(join(clone, '.e2e'), { recursive: true });
    for (const name of shared) symlinkSync(join(e2e, name), join(clone, '.e2e', name));
    say(`sharing this checkout's editors: ${shared.join(', ') || 'none installed'}`);
  }
  say('cold npm start (npm install, build, package, code-server install when missing) …');
  const cold = await timedStart(clone, 'cold');
  say(`cold: ${cold.toFixed(1)} s to a usable editor`);
  say('warm npm start …');
  const warm = await timedStart(clone, 'warm');
  say(`warm: ${warm.toFixed(1)} s to a usable editor`);
  console.log(JSON.stringify({ cold_s: Number(cold.toFixed(1)), warm_s: Number(warm.toFixed(1)), shared_editors: args.has('--share-editors'), editor: process.env.HEARTH_E2E_VSCODE ?? 'newest' }));
} catch (error) {
  keep = true;
  console.error(`[smoke] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (keep) say(`the clone stays in ${clone}`);
  else rmSync(clone, { recursive: true, force: true });
}
