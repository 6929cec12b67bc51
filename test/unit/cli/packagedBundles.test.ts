// The vsix ships the CLI (dist/cli.js) beside the extension, and both find their worker threads
// beside themselves by name (dist/embedWorker.js, dist/queryEmbedWorker.js). .vscodeignore keeps
// only what it lists: a bundle it forgets is missing from every install — the query worker was,
// so an installed `hearth search` with a hosted embedder failed to embed its query. What vsce
// would package (`vsce ls`) must hold every bundle `npm run build` writes at the top of dist/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

const VSCE = resolve('node_modules/@vscode/vsce/vsce');
const skip = (!existsSync('dist/cli.js') && 'run npm run build first') || (!existsSync(VSCE) && '@vscode/vsce is not installed');

test('the vsix holds every bundle the build writes (extension, CLI, their chunks and workers)', { skip }, () => {
  const packaged = new Set(execFileSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { encoding: 'utf8' }).split('\n').map((line) => line.trim()));
  const bundles = readdirSync('dist').filter((name) => /\.([mc]?js)$/.test(name)).map((name) => `dist/${name}`);
  assert.ok(bundles.includes('dist/queryEmbedWorker.js') && bundles.includes('dist/embedWorker.js') && bundles.includes('dist/cli.cjs'), bundles.join(', '));
  assert.deepEqual(bundles.filter((path) => !packaged.has(path)), []);
});
