// `npm run bench` part `postgres`: the postgres store against PGlite (PostgreSQL 18 + pgvector
// 0.8 compiled to WASM, served over the real wire protocol by pglite-server on loopback). PGlite
// runs every connection on one single-threaded backend: these are PGlite's figures, not a real
// server's. Index and search of N chunks (pseudo-text, clustered random unit vectors, 128 dims):
// text, semantic and hybrid search p50/p95, HNSW recall@10 against exact ranking (ef_search set
// per query), and a team's second member indexing an already indexed kiln (embedding calls and
// time against the first member's, both with the same OpenAI-compatible embedder on loopback
// answering after 20 ms per request). Sizes: HEARTH_BENCH_PG_SIZES (default 10000; 100000 is
// opt-in, about a quarter of an hour on PGlite); HEARTH_BENCH_PG_CAP_MS caps each size's indexing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresStore } from '../../src/core/index/store/postgresStore';
import type { ChunkRecord } from '../../src/core/index/store/vectorStore';
import { rankHybrid } from '../../src/core/index/search/noteRanking';
import { StoreLexicon } from '../../src/core/index/search/storeLexicon';
import { makeKiln, removeKiln } from '../unit/index/kilnIndexHelpers';
import { pgIndex, startOpenAiEmbeddings, startPgServer } from '../unit/store/pgHelpers';

const DIM = 128;
const QUERIES = 100;
const CAP_MS = Number(process.env.HEARTH_BENCH_PG_CAP_MS ?? 240_000);

export async function runPostgresBench(sizes: number[]): Promise<{ label: string; value: string }[]> {
  const lines: { label: string; value: string }[] = [];
  const server = await startPgServer();
  try {
    for (const n of sizes) lines.push(...(await sizeBench(server.url, n)));
    lines.push(...(await secondMember(server.url)));
  } finally {
    await server.stop();
  }
  return lines;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function clustered(count: number, random: () => number): Float32Array[] {
  const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
  const centers = Array.from({ length: 64 }, () => Float32Array.from({ length: DIM }, gauss));
  return Array.from({ length: count }, () => {
    const c = centers[Math.floor(random() * centers.length)];
    const v = Float32Array.from(c, (x) => x + gauss() * 0.8);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

/** Pseudo-words (syllables), picked with a heavy head as real text is: a few common, most rare. */
function vocabulary(random: () => number, size: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'to', 'va', 'shi', 'por', 'den', 'gal', 'tre', 'um', 'bis', 'fen', 'qua'];
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  }
  return [...words];
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/**
 * N chunks of pseudo-text (10 per note: a three-word title, a heading, 40–80 words) with clustered
 * vectors, written through the store one transaction per note; then per mode 100 searches for
 * three words of one chunk (and its vector, a little moved): text (the database's full-text
 * search, ranked into notes by rankHybrid's lexical side), semantic (HNSW, k = 10 chunks,
 * recall@10 against exact) and hybrid (both lists fused by rankHybrid), as KilnIndex.search does.
 */
async function sizeBench(url: string, n: number): Promise<{ label: string; value: string }[]> {
  const label = `PGlite ${n / 1000}k chunks x ${DIM}`;
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-pg-'));
  const store = new PostgresStore({ url, kilnId: `bench/${n}`, dir }, { providerType: 'bench', model: `bench-${n}`, dim: DIM });
  try {
    const random = rng(n);
    const vectors = clustered(n, random);
    const words = vocabulary(random, 8000);
    const word = () => words[Math.floor(words.length * random() ** 2.5)];
    const texts: string[] = [];
    await store.open();
    const started = performance.now();
    const perNote = 10;
    let written = 0;
    for (let note = 0; written < n; note++) {
      const path = `n${note}.md`;
      const title = `${word()} ${word()} ${word()}`;
      const count = Math.min(perNote, n - written);
      const chunks: ChunkRecord[] = Array.from({ length: count }, (_, i) => {
        const text = Array.from({ length: 40 + Math.floor(random() * 40) }, word).join(' ');
        texts.push(text);
        return {
          id: `${path}#${i}`, notePath: path, title, headingPath: [`${word()} ${word()}`], startLine: i * 5 + 1, endLine: i * 5 + 4,
          text, contentHash: `h${note}`, textHash: `bench-${n}-${written + i}`,
        };
      });
      await store.upsertNote(path, chunks, vectors.slice(written, written + count), `h${note}`);
      written += count;
      if (performance.now() - started > CAP_MS) break;
    }
    const buildMs = performance.now() - started;
    const lines = [{ label: `${label}: index (HNSW and GIN maintained, one transaction per 10-chunk note)`, value: written < n ? `stopped at ${written} chunks after ${(buildMs / 1000).toFixed(0)} s (cap)` : `${(buildMs / 1000).toFixed(1)} s (${((written / buildMs) * 1000).toFixed(0)} chunks/s)` }];
    const live = vectors.slice(0, written);
    const times = { text: [] as number[], semantic: [] as number[], hybrid: [] as number[] };
    let overlap = 0;
    let textFound = 0;
    let hybridFound = 0;
    for (let q = 0; q < QUERIES; q++) {
      const source = Math.floor(random() * live.length);
      const wanted = `n${Math.floor(source / perNote)}.md`;
      const chunkWords = texts[source].split(' ');
      const text = Array.from({ length: 3 }, () => chunkWords[Math.floor(random() * chunkWords.length)]).join(' ');
      const query = live[source].map((x) => x + (random() - 0.5) * 0.05);
      let t = performance.now();
      const lexical = await StoreLexicon.search(store, text, 30);
      const textTop = rankHybrid(lexical, lexical.query(text), [], 10, { lexicalWeight: 1, chunksOf: (path) => store.noteChunks(path) });
      times.text.push(performance.now() - t);
      if (textTop.some((note) => note.path === wanted)) textFound++;
      t = performance.now();
      const hits = await store.search(query, 10);
      times.semantic.push(performance.now() - t);
      t = performance.now();
      const nearest = await store.search(query, 50);
      const fused = await StoreLexicon.search(store, text, 30, [...new Set(nearest.map((h) => h.chunk.notePath))]);
      const hybrid = rankHybrid(fused, fused.query(text), nearest, 10, { chunksOf: (path) => store.noteChunks(path) });
      times.hybrid.push(performance.now() - t);
      if (hybrid.some((note) => note.path === wanted)) hybridFound++;
      const exact = live.map((v, i) => ({ i, s: dot(v, query) })).sort((a, b) => b.s - a.s).slice(0, 10).map((e) => `bench-${n}-${e.i}`);
      const got = new Set(hits.map((h) => h.chunk.textHash));
      overlap += exact.filter((h) => got.has(h)).length / 10;
    }
    for (const [mode, list] of Object.entries(times)) {
      list.sort((a, b) => a - b);
      const what = mode === 'text' ? 'full-text 30 notes, ranked' : mode === 'semantic' ? 'HNSW, k = 10, ef_search 100' : 'HNSW 50 + full-text 30 notes, fused';
      lines.push({ label: `${label}: ${mode} search p50 / p95 (${what})`, value: `${pct(list, 0.5).toFixed(1)} / ${pct(list, 0.95).toFixed(1)} ms` });
    }
    lines.push({ label: `${label}: HNSW recall@10 vs exact`, value: (overlap / QUERIES).toFixed(3) });
    lines.push({ label: `${label}: source note in the top 10 (text / hybrid; 3 random words of one chunk, ambiguous in large kilns: quality is npm run eval's)`, value: `${textFound / QUERIES} / ${hybridFound / QUERIES}` });
    return lines;
  } finally {
    await store.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

async function secondMember(url: string): Promise<{ label: string; value: string }[]> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`team/n${i}.md`] = `# Note ${i}\n\nSection one of note ${i}, topic ${i % 11}.\n\n## More\n\nSection two of note ${i}: ${'words '.repeat((i % 9) + 3)}\n`;
  const embeddings = await startOpenAiEmbeddings(384, 20);
  const [a, b] = [makeKiln(files), makeKiln(files)];
  const first = pgIndex(a, url, embeddings.url, { kiln_id: 'bench/team' });
  const second = pgIndex(b, url, embeddings.url, { kiln_id: 'bench/team' });
  try {
    let t = performance.now();
    const one = await first.update();
    const firstMs = performance.now() - t;
    const firstCalls = embeddings.bodies.length;
    t = performance.now();
    await second.update();
    const secondMs = performance.now() - t;
    const secondCalls = embeddings.bodies.length - firstCalls;
    return [
      { label: `PGlite team kiln (300 notes, ${one.chunks} chunks, 384 dims, embedder 20 ms/request): first member's index`, value: `${(firstMs / 1000).toFixed(2)} s, ${firstCalls} embedding calls` },
      { label: "PGlite team kiln: second member's first index (other folder, same notes)", value: `${(secondMs / 1000).toFixed(2)} s, ${secondCalls} embedding calls (${(firstMs / secondMs).toFixed(1)}x faster)` },
    ];
  } finally {
    await first.dispose();
    await second.dispose();
    await embeddings.stop();
    removeKiln(a);
    removeKiln(b);
  }
}

if (process.argv[1] === import.meta.filename) {
  const sizes = (process.env.HEARTH_BENCH_PG_SIZES ?? '10000').split(',').map(Number);
  void runPostgresBench(sizes).then((lines) => {
    for (const line of lines) console.log(`${line.label}: ${line.value}`);
  });
}
