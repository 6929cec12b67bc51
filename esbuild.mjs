// One build script, one entry per runtime: the extension host, the CLI, the webview.
import * as esbuild from 'esbuild';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

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

// The CLI split into chunks (commands and SDKs load when first used, so `hearth --help` parses a
// few KB, not 15 MB). esbuild splits only ES modules, so the chunks are built as ESM and then
// turned into CommonJS (cliAsCommonJs): Node 20 can hand V8 a code cache only for CommonJS
// (src/cli/codeCache.ts), and the CommonJS dependencies get the require/__dirname they expect.
// Chunks sit beside the bundles (code that finds embedWorker.js by __dirname still finds it).
const cli = {
  ...node,
  format: 'esm',
  splitting: true,
  entryPoints: { cli: 'src/cli/bin.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  chunkNames: 'cli-chunk-[hash]',
  metafile: true,
  plugins: [cliAsCommonJs()],
};

// The ESM banner of the extension's chunks: CommonJS dependencies get the require/__dirname they expect.
const esmShims = [
  "import { createRequire as __hearthRequire } from 'node:module';",
  "import { fileURLToPath as __hearthPath } from 'node:url';",
  "import { dirname as __hearthDir } from 'node:path';",
  'const require = __hearthRequire(import.meta.url);',
  'const __filename = __hearthPath(import.meta.url);',
  'const __dirname = __hearthDir(__filename);',
].join('\n');

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
  ...node,
  format: 'esm',
  splitting: true,
  entryPoints: { extension: 'src/vscode/extension.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'extension-chunk-[hash]',
  banner: { js: esmShims },
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
  for (const stale of existsSync('dist') ? readdirSync('dist').filter((f) => /^(cli|extension)-chunk-.*\.[mc]js(\.map)?$|^(cli|extension)\.js\.map$|^cli\.[mc]js(\.map)?$/.test(f)) : []) rmSync(join('dist', stale));
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
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

// After each build of the CLI's ESM chunks (once, or on every change with --watch): each becomes
// CommonJS in place, a dynamic import of a chunk becomes a require (an import() would go through
// the ES module loader, and a chunk compiled with a code cache cannot answer one), and the bin is
// built with the id of these chunks.
function cliAsCommonJs() {
  return {
    name: 'cli-as-commonjs',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.cjs'));
        await esbuild.build({
          ...common,
          logLevel: 'warning',
          entryPoints: files,
          bundle: false,
          platform: 'node',
          target: 'node20',
          format: 'cjs',
          outdir: 'dist',
          outExtension: { '.js': '.cjs' },
          allowOverwrite: true,
          // The chunks' code never reads import.meta; a dependency that did would get {} silently.
          logOverride: { 'empty-import-meta': 'error' },
        });
        // The build id: the chunks, and how they are compiled from the cache (a change to the loader
        // alone must not read bytecode another loader made).
        const hash = createHash('sha256');
        for (const source of ['src/cli/codeCache.ts', 'src/cli/launcher.ts']) hash.update(`${source}\0${readFileSync(source, 'utf8')}\0`);
        for (const file of files.sort()) {
          const code = readFileSync(file, 'utf8');
          let chunkImports = 0;
          const rewritten = code.replace(/\bimport\("(\.\/cli-chunk-[A-Z0-9]+\.cjs)"\)/g, (_, chunk) => {
            chunkImports++;
            return `Promise.resolve().then(() => require("${chunk}"))`;
          });
          if (/\bimport\(["']\.\/cli-chunk-/.test(rewritten)) throw new Error(`${file}: a dynamic import of a chunk was left as import()`);
          if (chunkImports > 0) writeFileSync(file, rewritten);
          hash.update(`${basename(file)}\0${rewritten}\0`);
        }
        // The `hearth` bin; executable, so it runs as ./dist/cli.js too (npm sets the mode only when it installs the package).
        await esbuild.build({
          ...node,
          logLevel: 'warning',
          entryPoints: ['src/cli/launcher.ts'],
          outfile: 'dist/cli.js',
          banner: { js: '#!/usr/bin/env node' },
          define: { HEARTH_CLI_BUILD: JSON.stringify(hash.digest('hex').slice(0, 16)) },
        });
        chmodSync('dist/cli.js', 0o755);
      });
    },
  };
}

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
