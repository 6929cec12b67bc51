// Cold paths, each a whole new process as a user runs it: `hearth --help`, and `hearth search` on a
// kiln of the package READMEs in node_modules (full length: ~430 notes / ~6k chunks) with an
// OpenAI-compatible embeddings endpoint on loopback (the hashed bag-of-words server of the eval).
// Loaded by test/bench/run.ts (part `cold`); `node --import tsx test/bench/coldSearch.bench.ts`
// runs it alone. Needs dist/cli.js (npm run build). HEARTH_BENCH_BASELINE=DIR (a checkout of an
// earlier commit, built) runs its dist/cli.js too, interleaved run by run, so both columns see the
// same machine load.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHashedEmbedServer } from '../eval/hashedEmbedServer';

const BIN = resolve('dist/cli.js');
const RUNS = Number(process.env.HEARTH_BENCH_COLD_RUNS ?? 15);

function readmeKiln(): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-bench-readmes-'));
  const modules = resolve('node_modules');
  const dirs: [string, string][] = [];
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) for (const sub of readdirSync(join(modules, name))) dirs.push([`${name}__${sub}`, join(modules, name, sub)]);
    else dirs.push([name, join(modules, name)]);
  }
  for (const [name, dir] of dirs) {
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    const readme = files.find((f) => /^readme\.(md|markdown)$/i.test(f));
    if (readme) writeFileSync(join(root, `${name}.md`), readFileSync(join(dir, readme)));
  }
  return root;
}

function run(args: string[], env: NodeJS.ProcessEnv, bin: string | undefined = BIN): Promise<{ ms: number; code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, bin === undefined ? args : [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => done({ ms: performance.now() - started, code, stdout, stderr }));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runColdBench(): Promise<{ label: string; value: string }[]> {
  if (!existsSync(BIN)) return [{ label: 'cold paths', value: 'no dist/cli.js: npm run build first' }];
  const server = await startHashedEmbedServer();
  const kiln = readmeKiln();
  // HEARTH_TRUST: the workspace config names an embeddings endpoint (a trust-gated key).
  const env = { ...process.env, HEARTH_TRUST: '1', XDG_CONFIG_HOME: join(kiln, '.xdg'), XDG_CACHE_HOME: join(kiln, '.xdg') };
  mkdirSync(join(kiln, '.hearth'));
  writeFileSync(join(kiln, '.hearth', 'config.toml'), `[embedding]\nprovider = "cloud_b"\napi_url = "${server.url}"\nmodel = "hashed-bow-256"\n`);
  const out: { label: string; value: string }[] = [];
  const baseline = process.env.HEARTH_BENCH_BASELINE ? join(resolve(process.env.HEARTH_BENCH_BASELINE), 'dist/cli.js') : undefined;
  const bins = baseline ? [BIN, baseline] : [BIN];
  const cell = (values: number[][]) => values.map((v) => `${median(v).toFixed(0)} ms`).join(' (before: ') + (baseline ? ')' : '');
  try {
    // Node's own start, the floor under every whole-process figure on this machine at this moment.
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i++) floor.push((await run(['-e', '0'], env, undefined)).ms);
    out.push({ label: 'node -e 0, whole process (median): the floor', value: `${median(floor).toFixed(0)} ms` });
    const help = bins.map(() => [] as number[]);
    for (let i = 0; i < RUNS; i++) for (const [b, bin] of bins.entries()) help[b].push((await run(['--help'], env, bin)).ms);
    out.push({ label: 'hearth --help, whole process (median)', value: cell(help) });
    const kilns = bins.map((_, b) => (b === 0 ? kiln : `${kiln}-baseline`));
    if (baseline) cpSync(kiln, kilns[1], { recursive: true });
    let report: { notes?: number; chunks?: number } = {};
    for (const [b, bin] of bins.entries()) {
      const indexed = await run(['index', '--json', '--workspace', kilns[b]], env, bin);
      if (indexed.code !== 0) throw new Error(`hearth index failed: ${indexed.stderr}`);
      if (b === 0) report = JSON.parse(indexed.stdout) as typeof report;
      // The first search after an index run may write what later ones read (the lexical file).
      await run(['search', 'warm up', '--workspace', kilns[b]], env, bin);
    }
    const queries = ['parse command line arguments', 'syntax highlighting', 'html to markdown', 'websocket client and server', 'json schema validator'];
    const times = bins.map(() => [] as number[]);
    for (let i = 0; i < RUNS; i++) {
      for (const [b, bin] of bins.entries()) {
        const result = await run(['search', queries[i % queries.length], '--json', '--workspace', kilns[b]], env, bin);
        if (result.code !== 0) throw new Error(`hearth search failed: ${result.stderr}`);
        times[b].push(result.ms);
      }
    }
    out.push({ label: `cold hearth search, whole process, ${report.notes} notes / ${report.chunks} chunks (median of ${RUNS})`, value: cell(times) });
    // Issue 31's target: at most 2× Node's own start, both measured in this run.
    const ratio = (b: number) => `${(median(times[b]) / median(floor)).toFixed(2)}×`;
    out.push({ label: 'cold hearth search ÷ node -e 0 (target ≤ 2×)', value: baseline ? `${ratio(0)} (before: ${ratio(1)})` : ratio(0) });
    if (baseline) rmSync(kilns[1], { recursive: true, force: true });
    return out;
  } finally {
    await server.stop();
    rmSync(kiln, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  runColdBench().then((lines) => lines.forEach((l) => console.log(`${l.label}: ${l.value}`)));
}
