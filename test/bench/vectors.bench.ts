// `npm run bench` part `vectors` (issue 31): exact int8 vector search at 100k and 1M chunks, at the
// default static embedder's dimension (256) and bge-small's (384), against a C int8 scan of the same
// files compiled here (`cc -O3 -march=native`; the row says so and is skipped when `cc` is missing).
// Each size is written by the flat store's own code in a process of its own, then measured in
// another (test/bench/vectorScenario.ts): Hearth's search and the C scan alternate query by query, so
// the ratio holds on a loaded machine where the absolute times do not.
// Sizes: HEARTH_BENCH_VECTOR_SIZES (100000,1000000), HEARTH_BENCH_VECTOR_DIMS (256,384).
// `node --import tsx test/bench/vectors.bench.ts` runs it alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScenario, type ScenarioResult } from './scenarioProcess';
import { C_SCAN_SOURCE } from './vectorScan.c';

const here = import.meta.dirname;
const CAP_MS = Number(process.env.HEARTH_BENCH_VECTOR_CAP_MS ?? 900_000);
const SIZES = (process.env.HEARTH_BENCH_VECTOR_SIZES ?? '100000,1000000').split(',').map(Number);
const DIMS = (process.env.HEARTH_BENCH_VECTOR_DIMS ?? '256,384').split(',').map(Number);

type Result = ScenarioResult;

function scenario(args: string[]): Promise<Result> {
  return runScenario(join(here, 'vectorScenario.ts'), args, CAP_MS);
}

/** Compiles the C scan into `dir`; undefined (and why) when there is no working `cc`. */
function compileScan(dir: string): { binary?: string; why?: string } {
  const source = join(dir, 'scan.c');
  const binary = join(dir, 'scan');
  writeFileSync(source, C_SCAN_SOURCE);
  const r = spawnSync('cc', ['-O3', '-march=native', '-o', binary, source], { encoding: 'utf8' });
  if (r.error) return { why: `no C compiler (cc: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message})` };
  if (r.status !== 0) return { why: `cc failed: ${r.stderr.trim().split('\n')[0]}` };
  return { binary };
}

const ms = (v: unknown) => (typeof v === 'number' ? v.toFixed(1) : '—');

export async function runVectorsBench(): Promise<{ label: string; value: string }[]> {
  const lines: { label: string; value: string }[] = [];
  const tools = mkdtempSync(join(tmpdir(), 'hearth-bench-cscan-'));
  try {
    const { binary, why } = compileScan(tools);
    if (!binary) lines.push({ label: 'C int8 scan', value: `skipped: ${why}` });
    for (const dim of DIMS) {
      for (const n of SIZES) {
        const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-vectors-'));
        try {
          const b = await scenario(['build', String(dim), String(n), dir]);
          const m = b.error ? b : await scenario(['measure', String(dim), String(n), dir, ...(binary ? [binary] : [])]);
          console.error(`vectors ${n} × ${dim}: ${JSON.stringify({ ...b, ...m })}`);
          const name = `${n >= 1e6 ? `${n / 1e6}M` : `${n / 1000}k`} chunks × ${dim}`;
          if (m.error) {
            lines.push({ label: name, value: String(m.error) });
            continue;
          }
          const ratio = typeof m.ratioP50 === 'number' ? `, ${m.ratioP50.toFixed(2)}× the C int8 scan (p50 ${ms(m.cP50)} ms)` : '';
          lines.push({ label: `${name}: semantic search p50`, value: `${ms(m.hearthP50)} ms${ratio}, RSS ${ms(m.rssMb)} MB` });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    rmSync(tools, { recursive: true, force: true });
  }
  lines.push({ label: 'load average (1 min) at the end', value: loadavg()[0].toFixed(1) });
  return lines;
}

if (process.argv[1] === import.meta.filename) {
  runVectorsBench().then(
    (lines) => {
      for (const l of lines) console.log(`${l.label.padEnd(50)} ${l.value}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
