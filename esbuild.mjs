// One build script, one entry per runtime: the extension host, the CLI, the webview.
import * as esbuild from 'esbuild';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  external: ['vscode', 'pg-native', 'onnxruntime-node', 'sharp', 'node-llama-cpp', '@huggingface/transformers'],
};

// The CLI as ESM split into chunks (commands and SDKs load when first used, so `hearth --help`
// parses a few KB, not 15 MB); chunks sit beside the bundles (code that finds embedWorker.js by
// __dirname still finds it). CommonJS dependencies get the require/__dirname they expect.
const esmShims = [
  "import { createRequire as __hearthRequire } from 'node:module';",
  "import { fileURLToPath as __hearthPath } from 'node:url';",
  "import { dirname as __hearthDir } from 'node:path';",
  'const require = __hearthRequire(import.meta.url);',
  'const __filename = __hearthPath(import.meta.url);',
  'const __dirname = __hearthDir(__filename);',
].join('\n');
const cli = {
  ...node,
  format: 'esm',
  splitting: true,
  entryPoints: { cli: 'src/cli/bin.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'cli-chunk-[hash]',
  banner: { js: esmShims },
};

// The extension as ESM split into chunks too, for the same reason: VS Code compiles every byte of a
// CommonJS bundle at activation (10 MB minified took ~0.4 s on an idle core), while a chunk only a
// dynamic import reaches (vectra's tokenizer tables, embedders, stores) is read when first used.
// dist/extension.js is the CommonJS file VS Code loads (written below); it imports this one.
// `vscode` is not an ES module: every import of it becomes a require through the banner's
// createRequire, which the extension host intercepts as it does for a CommonJS extension.
const vscodeAsCommonJs = {
  name: 'vscode-as-commonjs',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-cjs' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-cjs' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-cjs' }, () => ({ contents: "module.exports = require('vscode');", loader: 'js' }));
  },
};
const extension = {
  ...cli,
  entryPoints: { extension: 'src/vscode/extension.ts' },
  chunkNames: 'extension-chunk-[hash]',
  external: node.external.filter((name) => name !== 'vscode'),
  plugins: [vscodeAsCommonJs],
};

const builds = [
  extension,
  cli,
  // The embedding worker (transformers.js off the main thread), loaded from beside the bundles.
  // transformers.js is bundled into it (the vsix ships no node_modules); only ONNX Runtime's native
  // binding stays outside, copied to dist/node_modules for this platform (copyOnnxRuntime below);
  // sharp (images only) is replaced by a stub.
  {
    ...node,
    entryPoints: ['src/core/index/embedders/embedWorker.ts'],
    outfile: 'dist/embedWorker.js',
    external: ['onnxruntime-node', 'onnxruntime-common'],
    alias: { sharp: './src/core/index/embedders/sharpStub.cjs' },
  },
  // The query worker of `hearth search` (a web-service embedder, one query), loaded from beside the bundles.
  { ...node, entryPoints: ['src/core/index/embedders/queryEmbedWorker.ts'], outfile: 'dist/queryEmbedWorker.js' },
];
if (existsSync('src/webview/main.ts')) {
  builds.push({ ...common, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js' });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  for (const stale of existsSync('dist') ? readdirSync('dist').filter((f) => /^(cli|extension)-chunk-.*\.mjs(\.map)?$|^(cli|extension)\.js\.map$/.test(f)) : []) rmSync(join('dist', stale));
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
// The `hearth` bin: a CommonJS shim with the shebang that loads the ESM bundle; executable, so it
// runs as ./dist/cli.js too (npm sets the mode only when it installs the package).
writeFileSync('dist/cli.js', "#!/usr/bin/env node\n'use strict';\n// The hearth CLI lives in cli.mjs (ESM, split into chunks loaded on first use).\nimport('./cli.mjs');\n");
chmodSync('dist/cli.js', 0o755);
// What VS Code loads ("main"): imports the ESM extension and times that import (compiling and
// linking its first chunks happens before any of its own code could start a clock); activate()
// logs the figure beside its own.
writeFileSync(
  'dist/extension.js',
  [
    "'use strict';",
    '// The extension lives in extension.mjs (ESM, split into chunks loaded on first use).',
    'let loaded;',
    'const load = () => {',
    '  if (!loaded) {',
    '    const started = performance.now();',
    "    loaded = import('./extension.mjs').then((main) => ({ main, codeLoadingMs: performance.now() - started }));",
    '  }',
    '  return loaded;',
    '};',
    'exports.activate = async (context) => {',
    '  const { main, codeLoadingMs } = await load();',
    '  return main.activate(context, { codeLoadingMs });',
    '};',
    'exports.deactivate = async () => (await load()).main.deactivate();',
    '',
  ].join('\n'),
);
copyOnnxRuntime();
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

// dist/node_modules/onnxruntime-{node,common}: what dist/embedWorker.js requires at run time, with
// the native binding of this platform only (the others would add ~250 MB to the vsix). A vsix for
// another platform is packaged on (or for) that platform.
function copyOnnxRuntime() {
  const target = 'dist/node_modules';
  rmSync(target, { recursive: true, force: true });
  const ortNode = 'node_modules/onnxruntime-node';
  const native = `bin/napi-v6/${process.platform}/${process.arch}`;
  if (!existsSync(join(ortNode, native))) {
    console.warn(`onnxruntime-node has no binding for ${process.platform}/${process.arch}: local_cpu embeddings will not work from dist/`);
    return;
  }
  // Their source maps stay behind (no maps in the vsix).
  const noMaps = { recursive: true, filter: (src) => !src.endsWith('.map') };
  for (const part of ['package.json', 'dist', native]) cpSync(join(ortNode, part), join(target, 'onnxruntime-node', part), noMaps);
  for (const part of ['package.json', 'dist']) cpSync(join('node_modules/onnxruntime-common', part), join(target, 'onnxruntime-common', part), noMaps);
}
