// The large index as a user meets it (issue 31): a 50k-note kiln (100k chunks) whose words are drawn
// from a realistic vocabulary — every word of the eval corpus (test/eval/kiln) ranked by how often
// it occurs there, continued by compounds of two of them (identifiers, names) past 20k distinct
// words, drawn with a Zipf distribution (rank r has weight 1/r) — and the 30-word vocabulary of the
// pipeline bench as the worst case (every note matches every query). Whole processes of dist/cli.js
// (`hearth index`, `hearth search`), each one's time and peak RSS (/usr/bin/time), the query
// embedded by the hashed bag-of-words server of the eval; the editor's warm hybrid search in process.
// HEARTH_BENCH_BASELINE=DIR (an earlier checkout, built) runs its dist/cli.js on a copy of the kiln,
// interleaved run by run. Sizes: HEARTH_BENCH_LARGE_NOTES (default 50000), HEARTH_BENCH_LARGE_VOCABS
// (default real,30). Loaded by test/bench/run.ts (part `large`); runs alone with
// `node --import tsx test/bench/largeIndex.bench.ts`.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { EmbeddingSchema, ProcessingSchema } from '../../src/core/config/schema';
import { silentLogger } from '../../src/core/host';
import { KilnIndex } from '../../src/core/index/kilnIndex';
import { startHashedEmbedServer } from '../eval/hashedEmbedServer';
import { rng } from '../unit/store/helpers';

const BIN = resolve('dist/cli.js');
const RUNS = Number(process.env.HEARTH_BENCH_LARGE_RUNS ?? 5);
const SMALL_WORDS = 'garden tomato basil water morning bread flour yeast coffee beans grind compost heap spring summer autumn winter seed soil leaf root pot sun rain shade kitchen oven salt sugar tea'.split(' ');
/** Distinct words the realistic vocabulary reaches (the corpus's own, then compounds). */
const VOCABULARY = 24_000;

/** The eval corpus's words, most frequent first, continued by two-word compounds up to `size`. */
export function corpusVocabulary(size = VOCABULARY): string[] {
  const dir = resolve('test/eval/kiln');
  const counts = new Map<string, number>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.md')) continue;
    for (const word of readFileSync(join(dir, name), 'utf8').toLowerCase().match(/[a-z][a-z0-9]{1,19}/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const words = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  const seen = new Set(words);
  const next = rng(11);
  const head = Math.min(words.length, 3000);
  while (words.length < size) {
    const compound = words[Math.floor(next() * head)] + words[Math.floor(next() * head)];
    if (!seen.has(compound)) {
      seen.add(compound);
      words.push(compound);
    }
  }
  return words.slice(0, size);
}

/** A word sampler: Zipf (weight 1/rank) over `words`, deterministic. */
export function zipfSampler(words: readonly string[], seed = 7): () => string {
  const cumulative = new Float64Array(words.length);
  let total = 0;
  for (let r = 0; r < words.length; r++) cumulative[r] = total += 1 / (r + 1);
  const next = rng(seed);
  return () => {
    const target = next() * total;
    let lo = 0;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
}

/** `notes` notes of two sections each (two chunks), written an hour ago, in 20 folders. */
export function makeLargeKiln(notes: number, vocab: 'real' | '30'): { root: string; distinct: number } {
  const root = mkdtempSync(join(tmpdir(), `hearth-bench-large-${vocab}-`));
  const small = rng(7);
  const word = vocab === 'real' ? zipfSampler(corpusVocabulary()) : () => SMALL_WORDS[Math.floor(small() * SMALL_WORDS.length)];
  const used = new Set<string>();
  const sentence = (n: number) => Array.from({ length: n }, () => {
    const w = word();
    used.add(w);
    return w;
  }).join(' ');
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (let i = 0; i < notes; i++) {
    const path = join(root, `folder${i % 20}`, `note${i}.md`);
    if (i < 20) mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `---\ntags: [${word()}]\n---\n# ${sentence(3)} ${i}\n\n${sentence(40)}.\n\n## ${sentence(2)}\n\n${sentence(60)}.\n`);
    utimesSync(path, hourAgo, hourAgo);
  }
  return { root, distinct: used.size };
}

interface Measured {
  ms: number;
  /** User + system CPU time: steadier than wall time on a shared machine. */
  cpuMs: number;
  rssMb: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One whole process under /usr/bin/time: wall time and peak RSS. */
function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'HEARTH_RSS_KB=%M HEARTH_CPU_S=%U+%S', process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => {
      const rss = /HEARTH_RSS_KB=(\d+)/.exec(stderr);
      const cpu = /HEARTH_CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
      done({ ms: performance.now() - started, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, rssMb: rss ? Number(rss[1]) / 1024 : NaN, code, stdout, stderr });
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

function check(m: Measured, what: string): Measured {
  if (m.code !== 0) throw new Error(`${what} failed (${m.code}): ${m.stderr.slice(-800)}`);
  return m;
}

const QUERIES = ['install the package with npm', 'parse command line arguments', 'error handling in streams', 'configure the server port', 'json schema validation'];

/** The editor's warm hybrid search: a KilnIndex opened and warmed as the editor does, p50 / p95 of 40 queries. */
async function warmHybrid(root: string, url: string, queries: string[]): Promise<string> {
  const index = new KilnIndex({
    kilnRoot: root,
    embedding: EmbeddingSchema.parse({ provider: 'cloud_b', api_url: url, model: 'hashed-bow-256' }),
    processing: ProcessingSchema.parse({}),
    embedderDeps: { env: {} },
    log: silentLogger,
  });
  try {
    await index.counts();
    await index.warmSearch();
    for (const q of queries.slice(0, 3)) await index.search(q, { limit: 10 });
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      const started = performance.now();
      await index.search(queries[i % queries.length], { limit: 10 });
      times.push(performance.now() - started);
    }
    return `${pct(times, 50).toFixed(1)} / ${pct(times, 95).toFixed(1)} ms`;
  } finally {
    await index.dispose();
  }
}

export async function runLargeIndexBench(): Promise<{ label: string; value: string }[]> {
  if (!existsSync(BIN)) return [{ label: 'large index', value: 'no dist/cli.js: npm run build first' }];
  const notes = Number(process.env.HEARTH_BENCH_LARGE_NOTES ?? 50_000);
  const vocabs = (process.env.HEARTH_BENCH_LARGE_VOCABS ?? 'real,30').split(',') as ('real' | '30')[];
  const baseline = process.env.HEARTH_BENCH_BASELINE ? join(resolve(process.env.HEARTH_BENCH_BASELINE), 'dist/cli.js') : undefined;
  const bins = baseline ? [BIN, baseline] : [BIN];
  const server = await startHashedEmbedServer();
  const out: { label: string; value: string }[] = [];
  // Each figure also goes to stderr as it is measured (the whole part takes tens of minutes at 50k notes).
  const add = (line: { label: string; value: string }) => {
    out.push(line);
    console.error(`[large] ${line.label}: ${line.value}`);
  };
  const cell = (values: string[]) => (baseline ? `${values[0]} (before: ${values[1]})` : values[0]);
  try {
    for (const vocab of vocabs) {
      const { root, distinct } = makeLargeKiln(notes, vocab);
      const kilns = bins.map((_, b) => (b === 0 ? root : `${root}-baseline`));
      const env = { ...process.env, HEARTH_TRUST: '1', XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg') };
      mkdirSync(join(root, '.hearth'));
      writeFileSync(join(root, '.hearth', 'config.toml'), `[embedding]\nprovider = "cloud_b"\napi_url = "${server.url}"\nmodel = "hashed-bow-256"\n`);
      if (baseline) cpSync(root, kilns[1], { recursive: true });
      const label = `${notes / 1000}k notes, ${vocab === 'real' ? `realistic vocabulary (${distinct} distinct words, Zipf)` : '30-word vocabulary (worst case)'}`;
      try {
        const search = (b: number, query: string, extra: string[] = []) => timed([bins[b], 'search', query, '--json', '--workspace', kilns[b], ...extra], env);
        const show = (m: Measured) => `${(m.ms / 1000).toFixed(2)} s (CPU ${(m.cpuMs / 1000).toFixed(2)} s), ${m.rssMb.toFixed(0)} MB`;
        const index: Measured[] = [];
        for (const b of bins.keys()) index.push(check(await timed([bins[b], 'index', '--json', '--workspace', kilns[b]], env), 'hearth index'));
        add({ label: `${label}: first hearth index (whole process, peak RSS)`, value: cell(index.map(show)) });
        const first: Measured[] = [];
        for (const b of bins.keys()) first.push(check(await search(b, QUERIES[0]), 'hearth search'));
        add({ label: `${label}: first hearth search after the index run`, value: cell(first.map(show)) });
        for (const [mode, extra] of [['hybrid', []], ['text', ['--mode', 'text']], ['semantic', ['--mode', 'semantic']]] as const) {
          const times = bins.map(() => [] as number[]);
          const rss = bins.map(() => [] as number[]);
          const cpu = bins.map(() => [] as number[]);
          for (let i = 0; i < RUNS; i++) {
            for (const b of bins.keys()) {
              const m = check(await search(b, QUERIES[i % QUERIES.length], [...extra]), `hearth search --mode ${mode}`);
              times[b].push(m.ms);
              rss[b].push(m.rssMb);
              cpu[b].push(m.cpuMs);
            }
          }
          add({ label: `${label}: cold hearth search --mode ${mode} (median of ${RUNS}, peak RSS)`, value: cell(bins.map((_, b) => `${median(times[b]).toFixed(0)} ms (CPU ${median(cpu[b]).toFixed(0)} ms), ${median(rss[b]).toFixed(0)} MB`)) });
        }
        // One note changed, indexed, then the first search after it (the word index patched for it).
        const changed = bins.map((_, b) => {
          appendFileSync(join(kilns[b], 'folder3', 'note3.md'), '\nA new paragraph about zebra crossings.\n');
          return b;
        });
        const reindex: Measured[] = [];
        for (const b of changed) reindex.push(check(await timed([bins[b], 'index', '--json', '--workspace', kilns[b]], env), 'hearth index'));
        add({ label: `${label}: hearth index after one note changed`, value: cell(reindex.map(show)) });
        const after: Measured[] = [];
        for (const b of bins.keys()) after.push(check(await search(b, 'zebra crossings'), 'hearth search'));
        add({ label: `${label}: first hearth search after that run`, value: cell(after.map(show)) });
        const warm: string[] = [];
        for (const b of bins.keys()) warm.push(b === 0 ? await warmHybrid(kilns[b], server.url, QUERIES) : 'in process: this build only');
        add({ label: `${label}: the editor's warm hybrid search (p50 / p95)`, value: warm[0] });
      } finally {
        for (const kiln of kilns) rmSync(kiln, { recursive: true, force: true });
      }
    }
  } finally {
    await server.stop();
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  runLargeIndexBench().then((lines) => lines.forEach((l) => console.log(`${l.label}: ${l.value}`)));
}
