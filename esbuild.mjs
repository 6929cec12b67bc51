// One build script, one entry per runtime: the extension host, the CLI, the webview.
import * as esbuild from 'esbuild';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

const node = {
  ...common,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Native and heavy optional modules stay outside the bundle and are loaded lazily at run time.
  external: ['vscode', 'onnxruntime-node', 'sharp', 'node-llama-cpp', '@huggingface/transformers'],
};

const builds = [
  { ...node, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js' },
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The embedding worker (transformers.js off the main thread), loaded from beside the bundles.
  { ...node, entryPoints: ['src/core/index/embedders/embedWorker.ts'], outfile: 'dist/embedWorker.js' },
];
if (existsSync('src/webview/main.ts')) {
  builds.push({ ...common, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js' });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // The `hearth` bin runs as ./dist/cli.js too (npm sets the mode only when it installs the package).
  chmodSync('dist/cli.js', 0o755);
}
await writeConfigSchema();

// dist/config.schema.json, generated from the zod schema (contributed as tomlValidation): bundle a
// tiny generator to a temp CommonJS file and run it with this same node.
async function writeConfigSchema() {
  const temp = join(mkdtempSync(join(tmpdir(), 'hearth-schema-')), 'jsonSchemaCli.cjs');
  try {
    await esbuild.build({ ...node, sourcemap: false, minify: false, logLevel: 'warning', entryPoints: ['src/core/config/jsonSchemaCli.ts'], outfile: temp });
    execFileSync(process.execPath, [temp, 'dist/config.schema.json'], { stdio: 'inherit' });
  } finally {
    rmSync(dirname(temp), { recursive: true, force: true });
  }
}
