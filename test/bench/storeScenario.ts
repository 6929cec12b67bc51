// One benchmark scenario in its own process (so timings and resident memory are its own):
//   build <kind> <chunks> <dir>    upserts <chunks> random unit vectors (10 per note), commits
//   measure <kind> <chunks> <dir>  cold open, search p50/p95, RSS, recall@10 vs exact scan, one-note update
// Prints one JSON line.
import { openVectorStore } from '../../src/core/index/store/openStore';
import type { ChunkRecord, StoreKind } from '../../src/core/index/store/vectorStore';
import { randomVector, rng } from '../unit/store/helpers';

export const DIM = 384;
const PER_NOTE = 10;
const HEADER = { providerType: 'local_cpu', model: 'bench', dim: DIM };

const unitVector = (next: () => number) => randomVector(DIM, next);

function chunks(note: number, hash: string): ChunkRecord[] {
  const notePath = `notes/${note}.md`;
  return Array.from({ length: PER_NOTE }, (_, i) => ({
    id: `${notePath}#${i}`, notePath, title: `Note ${note}`, headingPath: ['Top', `Part ${i}`],
    startLine: i * 20 + 1, endLine: i * 20 + 19, text: `chunk ${i} of note ${note}, a short snippet of text`, contentHash: hash,
  }));
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function build(kind: StoreKind, n: number, dir: string) {
  const next = rng(42);
  const store = await openVectorStore(kind, dir, HEADER);
  const t0 = performance.now();
  for (let note = 0; note < n / PER_NOTE; note++) {
    await store.upsertNote(`notes/${note}.md`, chunks(note, 'h0'), Array.from({ length: PER_NOTE }, () => unitVector(next)));
  }
  const t1 = performance.now();
  let saveError: string | undefined;
  try {
    await store.commit();
  } catch (error) {
    saveError = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 80) : String(error);
  }
  const t2 = performance.now();
  return { buildMs: t1 - t0, saveMs: t2 - t1, saveError };
}

async function measure(kind: StoreKind, n: number, dir: string) {
  // Load the store's code first: cold load means reading the index, not compiling TypeScript.
  await import(kind === 'flat' ? '../../src/core/index/store/flatStore' : '../../src/core/index/store/vectraStore');
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const store = await openVectorStore(kind, dir, HEADER);
  const loadMs = performance.now() - t0;
  const qnext = rng(7);
  const queries = Array.from({ length: 200 }, () => unitVector(qnext));
  for (const q of queries.slice(0, 5)) await store.search(q, 10); // warm the JIT
  const times: number[] = [];
  const results: string[][] = [];
  for (const q of queries) {
    const s = performance.now();
    const hits = await store.search(q, 10);
    times.push(performance.now() - s);
    results.push(hits.map((h) => h.chunk.id));
  }
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  // Recall@10 against an exact float32 scan over the same vectors (regenerated from the seed).
  const next = rng(42);
  const all: Float32Array[] = Array.from({ length: n }, () => unitVector(next));
  let found = 0;
  const checked = 20;
  for (let qi = 0; qi < checked; qi++) {
    const q = queries[qi];
    const scores = all.map((v, idx) => {
      let s = 0;
      for (let i = 0; i < DIM; i++) s += q[i] * v[i];
      return { idx, s };
    });
    scores.sort((a, b) => b.s - a.s);
    const truth = new Set(scores.slice(0, 10).map(({ idx }) => `notes/${Math.floor(idx / PER_NOTE)}.md#${idx % PER_NOTE}`));
    found += results[qi].filter((id) => truth.has(id)).length;
  }
  const updates: number[] = [];
  const unext = rng(1234);
  for (let u = 0; u < 5; u++) {
    const s = performance.now();
    await store.upsertNote('notes/3.md', chunks(3, `u${u}`), Array.from({ length: PER_NOTE }, () => unitVector(unext)));
    await store.commit();
    updates.push(performance.now() - s);
  }
  await store.dispose();
  return { loadMs, p50: pct(times, 50), p95: pct(times, 95), recall: found / (checked * 10), rssMb, rssBeforeMb: rssBefore / 2 ** 20, updateMs: pct(updates, 50) };
}

const [mode, kind, n, dir] = process.argv.slice(2);
if (mode) {
  const run = mode === 'build' ? build : measure;
  run(kind as StoreKind, Number(n), dir).then(
    (r) => process.stdout.write(JSON.stringify(r) + '\n'),
    (e) => {
      process.stdout.write(JSON.stringify({ error: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 80) : String(e) }) + '\n');
    },
  );
}
