// One `vectors` bench scenario in its own process (so its resident memory is its own):
//   build <dim> <chunks> <dir>            random unit vectors written with the flat store's own code
//   measure <dim> <chunks> <dir> [cscan]  Hearth's semantic search (store.search, k = 10) over 50
//       queries, each followed by the same query through the C scan (a child reading the same q8
//       file), so both see the same machine load; prints both p50s and this process's RSS.
// Prints one JSON line.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { readManifest, generationFiles } from '../../src/core/index/store/flatFiles';
import { openVectorStore } from '../../src/core/index/store/openStore';
import { normalized, quantizeInto } from '../../src/core/index/store/quantize';
import type { ChunkRecord } from '../../src/core/index/store/vectorStore';
import { randomVector, rng } from '../unit/store/helpers';

const PER_NOTE = 10;
const QUERIES = 50;
const header = (dim: number) => ({ providerType: 'local_cpu', model: 'bench', dim });
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function chunks(note: number): ChunkRecord[] {
  const notePath = `notes/${note}.md`;
  return Array.from({ length: PER_NOTE }, (_, i) => ({
    id: `${notePath}#${i}`, notePath, title: `Note ${note}`, headingPath: ['Top'],
    startLine: i * 20 + 1, endLine: i * 20 + 19, text: `chunk ${i} of note ${note}`, contentHash: 'h',
  }));
}

async function build(dim: number, n: number, dir: string) {
  const next = rng(42);
  const store = await openVectorStore('flat', dir, header(dim));
  const t0 = performance.now();
  for (let note = 0; note < n / PER_NOTE; note++) {
    await store.upsertNote(`notes/${note}.md`, chunks(note), Array.from({ length: PER_NOTE }, () => randomVector(dim, next)));
    // Committing as it goes keeps the staged float32 vectors (1.5 GB at 1M × 384) out of memory.
    if (note % 5000 === 4999) await store.commit();
  }
  await store.commit();
  await store.dispose();
  return { buildMs: performance.now() - t0 };
}

/** The C scan as a child answering one query index per line with its scan time in ms. */
function cScan(binary: string, args: string[]) {
  const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async time(query: number): Promise<number> {
      child.stdin.write(`${query}\n`);
      const { value, done } = await lines.next();
      if (done) throw new Error('the C scan exited');
      return Number(String(value).split(' ')[0]);
    },
    close: () => child.stdin.end(),
  };
}

async function measure(dim: number, n: number, dir: string, binary?: string) {
  const store = await openVectorStore('flat', dir, header(dim));
  const qnext = rng(7);
  const queries = Array.from({ length: QUERIES }, () => randomVector(dim, qnext));
  const m = await readManifest(dir);
  if (!m) throw new Error('no manifest');
  const qfile = join(dir, 'queries.q8');
  const q8 = new Int8Array(QUERIES * m.dimPad);
  queries.forEach((q, i) => quantizeInto(normalized(q), q8.subarray(i * m.dimPad, (i + 1) * m.dimPad)));
  writeFileSync(qfile, q8);
  const c = binary ? cScan(binary, [generationFiles(dir, m.gen).q8, String(m.dimPad), String(m.slots), qfile, String(QUERIES)]) : undefined;
  for (let i = 0; i < 5; i++) {
    await store.search(queries[i], 10); // warm the JIT (and the C scan's page cache)
    await c?.time(i);
  }
  const hearth: number[] = [];
  const cTimes: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const s = performance.now();
    await store.search(queries[i], 10);
    hearth.push(performance.now() - s);
    if (c) cTimes.push(await c.time(i));
  }
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  c?.close();
  await store.dispose();
  const ratios = cTimes.map((t, i) => hearth[i] / t);
  return { hearthP50: p50(hearth), cP50: c ? p50(cTimes) : undefined, ratioP50: c ? p50(ratios) : undefined, rssMb, dimPad: m.dimPad };
}

const [mode, dim, n, dir, binary] = process.argv.slice(2);
if (mode) {
  (mode === 'build' ? build(Number(dim), Number(n), dir) : measure(Number(dim), Number(n), dir, binary)).then(
    (r) => process.stdout.write(JSON.stringify(r) + '\n'),
    (e) => process.stdout.write(JSON.stringify({ error: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 120) : String(e) }) + '\n'),
  );
}
