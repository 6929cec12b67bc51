// `npm run bench`: the index stores side by side (flat vs vectra, 10k and 100k chunks x 384 dims of
// random unit vectors), each scenario in its own process with a time cap, then the indexing
// pipeline (test/bench/pipeline.ts) and the MCP gateway (test/bench/gateway.bench.ts, also
// `npm run bench:gateway` alone) and confined file access (test/bench/kilnFiles.bench.ts: read_note
// and a no-op index pass), the cold paths (test/bench/coldSearch.bench.ts: `hearth --help` and a
// whole-process `hearth search`) and the hostile inputs of issue 13 (test/bench/hostile.bench.ts).
// and the postgres store against PGlite (test/bench/postgres.bench.ts), the large index with a
// realistic vocabulary (test/bench/largeIndex.bench.ts: 50k notes, whole `hearth` processes).
// Extension activation in code-server (test/bench/activation.bench.ts: needs npm run package).
// The local_cpu embedders (test/bench/embedders.bench.ts, part `embed`): the static model, a transformer
// of bge-small's shape before and after token-budget batching, and a 10k-note kiln's first index.
// The link graph (test/bench/links.bench.ts, part `links`): build from disk (and its longest event-loop block), one-note update, backlinks, `[[`
// completion and related notes at 100k chunks, each beside a baseline of the same run.
// Exact int8 vector search at 100k and 1M chunks against a C int8 scan of the same files
// (test/bench/vectors.bench.ts, part `vectors`; the C row is skipped with a message without `cc`).
// HEARTH_BENCH_PARTS=store,pipeline,cold,activation,gateway,files,hostile,postgres,embed,links,vectors picks parts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runActivationBench } from './activation.bench';
import { runColdBench } from './coldSearch.bench';
import { runEmbedBench } from './embedders.bench';
import { runGatewayBench } from './gateway.bench';
import { runHostileBench } from './hostile.bench';
import { runKilnFilesBench } from './kilnFiles.bench';
import { runLinksBench } from './links.bench';
import { runLargeIndexBench } from './largeIndex.bench';
import { runPostgresBench } from './postgres.bench';
import { runScenario, type ScenarioResult } from './scenarioProcess';
import { run as runPipelineBench } from './pipeline';
import { runVectorsBench } from './vectors.bench';

const here = import.meta.dirname;
const CAP_MS = Number(process.env.HEARTH_BENCH_CAP_MS ?? 60_000);
const sizes = (process.env.HEARTH_BENCH_SIZES ?? '10000,100000').split(',').map(Number);
// `npm run bench -- links,vectors` picks parts as HEARTH_BENCH_PARTS does.
const parts = new Set((process.argv[2] ?? process.env.HEARTH_BENCH_PARTS ?? 'store,pipeline,cold,activation,gateway,files,hostile,postgres,embed,links,vectors').split(','));

type Result = ScenarioResult;

function scenario(args: string[]): Promise<Result> {
  return runScenario(join(here, 'storeScenario.ts'), args, CAP_MS);
}

const ms = (v: unknown) => (typeof v === 'number' ? (v >= 100 ? v.toFixed(0) : v.toFixed(2)) : '—');

async function main(): Promise<void> {
  if (parts.has('store')) await storeBench();
  if (parts.has('pipeline')) {
    const lines = await runPipelineBench();
    printTable(['pipeline', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('cold')) {
    const lines = await runColdBench();
    printTable(['cold paths (HEARTH_BENCH_BASELINE=DIR: an earlier build beside)', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('large')) {
    const lines = await runLargeIndexBench();
    printTable(['large index, whole processes (HEARTH_BENCH_BASELINE=DIR: an earlier build beside)', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('activation')) {
    const lines = await runActivationBench();
    printTable(['extension activation (the packaged vsix in code-server)', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('gateway')) {
    const lines = await runGatewayBench();
    printTable(['gateway', 'value'], lines.map((l) => [l.name, l.value]));
  }
  if (parts.has('files')) {
    const lines = await runKilnFilesBench();
    printTable(['confined files', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('postgres')) {
    // 100k chunks take PGlite a quarter of an hour to index: opt in with HEARTH_BENCH_PG_SIZES=10000,100000.
    const lines = await runPostgresBench((process.env.HEARTH_BENCH_PG_SIZES ?? '10000').split(',').map(Number));
    printTable(['postgres store (against PGlite over the wire: WASM, one backend; not a real server)', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('embed')) {
    const lines = await runEmbedBench();
    printTable(['local_cpu embedders (issue 31; each figure beside its baseline from this run)', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('links')) {
    const lines = await runLinksBench();
    printTable(['linked notes (issue 26; each figure beside its baseline from this run)', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('vectors')) {
    const lines = await runVectorsBench();
    printTable(['int8 vector search (issue 31; Hearth and a C int8 scan alternate query by query in one run)', 'value'], lines.map((l) => [l.label, l.value]));
  }
  if (parts.has('hostile')) {
    const lines = await runHostileBench();
    printTable(['hostile input', 'time'], lines.map((l) => [l.label, l.value]));
  }
}

async function storeBench(): Promise<void> {
  const rows: string[][] = [];
  for (const n of sizes) {
    for (const kind of (process.env.HEARTH_BENCH_STORES ?? 'flat,vectra').split(',')) {
      const dir = mkdtempSync(join(tmpdir(), `hearth-bench-${kind}-`));
      try {
        const b = await scenario(['build', kind, String(n), dir]);
        const failed = b.error ?? b.saveError;
        const m = failed ? { error: 'no saved index' } : await scenario(['measure', kind, String(n), dir]);
        rows.push([
          kind, `${n / 1000}k`, ms(b.buildMs), b.error ? String(b.error) : b.saveError ? `failed: ${b.saveError}` : ms(b.saveMs),
          ms(m.loadMs), ms(m.p50), ms(m.p95), typeof m.recall === 'number' ? m.recall.toFixed(3) : '—',
          typeof m.rssMb === 'number' ? m.rssMb.toFixed(0) : '—', ms(m.updateMs),
        ]);
        console.error(`${kind} ${n}: ${JSON.stringify({ ...b, ...m })}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const head = ['store', 'chunks', 'build ms', 'save ms', 'cold load ms', 'search p50 ms', 'p95 ms', 'recall@10', 'RSS MB', 'update 1 note ms'];
  printTable(head, rows);
}

function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log('\n' + line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
