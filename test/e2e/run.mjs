// `npm run test:e2e`: installs the editors of the matrix if needed (code-server 4.100.3 = VS Code
// 1.100 and 4.139.1 = VS Code 1.139, see setup.mjs), packages the extension if the .vsix is missing
// or older than the build, then runs every test/e2e/*.e2e.test.ts one file at a time on each editor
// in turn (each starts its own code-server and Chromium: heavy, and they must not compete for 2
// cores). Exit code: non-zero when any file fails on any editor. Prints how long each step took.
//
// Usage: node test/e2e/run.mjs [substring…]   (only the e2e files whose name contains one)
//        HEARTH_E2E_VSCODE=1.100|1.139        (only that editor; default: both)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCodeServer, installFailureLine, selectedEditors } from './setup.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(repo);
const timings = [];

function step(name, work) {
  const started = Date.now();
  try {
    return work();
  } finally {
    const seconds = (Date.now() - started) / 1000;
    timings.push([name, seconds]);
    console.log(`[e2e] ${name}: ${seconds.toFixed(1)} s`);
  }
}

function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

let editors;
try {
  editors = selectedEditors();
} catch (error) {
  console.error(`[e2e] ${error.message}`);
  process.exit(2);
}
for (const editor of editors) {
  try {
    step(`code-server setup (${editor})`, () => ensureCodeServer({ editor }));
  } catch (error) {
    // One line, what failed and what to do; never a stack trace (the installer's output is above).
    console.error(`[e2e] ${installFailureLine(error, editor)}`);
    process.exit(1);
  }
}

const vsix = join('dist', 'hearth.vsix');
// The vsix is stale when any bundle it carries is newer (a rebuild without a re-package).
const newestBundle = Math.max(...['extension.js', 'cli.js', 'webview.js', 'embedWorker.js', 'config.schema.json'].map((f) => mtime(join('dist', f))), mtime('package.json'));
if (!existsSync(vsix) || mtime(vsix) < newestBundle) {
  step('npm run package', () => {
    const result = spawnSync('npm', ['run', 'package', '--silent'], { stdio: 'inherit' });
    if (result.status !== 0) {
      console.error('[e2e] npm run package failed');
      process.exit(1);
    }
  });
} else {
  console.log(`[e2e] ${vsix} is up to date`);
}

const filter = process.argv.slice(2);
const files = readdirSync(join('test', 'e2e'))
  .filter((name) => name.endsWith('.e2e.test.ts'))
  .filter((name) => filter.length === 0 || filter.some((part) => name.includes(part)))
  .sort()
  .map((name) => join('test', 'e2e', name));
if (files.length === 0) {
  console.error('[e2e] no e2e test files found');
  process.exit(1);
}

const failed = [];
for (const editor of editors) {
  // The tests run on the system's Node (20); only code-server itself runs on the editor's own Node.
  const env = { ...process.env, HEARTH_E2E_VSCODE: editor };
  for (const file of files) {
    const name = `${file} [VS Code ${editor}]`;
    console.log(`\n[e2e] ${name}`);
    const status = step(name, () => spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', file], { stdio: 'inherit', env }).status);
    if (status !== 0) failed.push(name);
  }
}

const total = timings.reduce((sum, [, seconds]) => sum + seconds, 0);
console.log(`\n[e2e] timings:\n${timings.map(([name, s]) => `  ${s.toFixed(1).padStart(7)} s  ${name}`).join('\n')}\n  ${total.toFixed(1).padStart(7)} s  total`);
if (failed.length > 0) {
  console.error(`[e2e] FAILED: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`[e2e] ${files.length} file(s) passed on VS Code ${editors.join(' and ')}`);
