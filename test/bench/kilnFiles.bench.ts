/**
 * Confined file access (DESIGN.md decision 16) against what it costs: `read_note` through the kiln
 * tool (each call opens with O_NOFOLLOW and checks the descriptor in /proc/self/fd), a no-op index
 * pass (the confined walk and a stat per note), and a pass after every note's mtime changed (each
 * note opened confined, read and hashed; nothing to embed). Best of 5 rounds, since
 * this machine is shared. `node --import tsx test/bench/kilnFiles.bench.ts` runs it alone; sizes:
 * HEARTH_BENCH_KILN_NOTES (default 5000), HEARTH_BENCH_READ_CALLS (default 2000).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EmbeddingSchema, ProcessingSchema } from '../../src/core/config/schema';
import { silentLogger } from '../../src/core/host';
import { KilnIndex } from '../../src/core/index/kilnIndex';
import { createKilnTools } from '../../src/core/kiln/tools/kilnTools';

const NOTES = Number(process.env.HEARTH_BENCH_KILN_NOTES ?? 5000);
const CALLS = Number(process.env.HEARTH_BENCH_READ_CALLS ?? 2000);
const DIM = 8;

function makeKiln(notes: number): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-bench-files-'));
  for (let i = 0; i < notes; i++) {
    const path = join(root, `folder${i % 25}`, `sub${i % 3}`, `note${i}.md`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `---\ntags: [t${i % 7}]\n---\n# Note ${i}\n\n${'garden tomato basil water morning bread '.repeat(12)}\n`);
  }
  return root;
}

function index(kilnRoot: string): KilnIndex {
  const idx = new KilnIndex({ kilnRoot, embedding: EmbeddingSchema.parse({}), processing: ProcessingSchema.parse({}), embedderDeps: { env: {} }, log: silentLogger });
  // A stand-in embedder: this measures file access, not the model.
  idx.setup.create = async () => ({ providerType: idx.setup.providerType, model: idx.setup.model, embed: async (batch: string[]) => batch.map(() => new Float32Array(DIM).fill(0.5)) });
  return idx;
}

async function best(rounds: number, work: () => Promise<void>, prepare?: (round: number) => void): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < rounds; i++) {
    prepare?.(i);
    const t = performance.now();
    await work();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

export async function runKilnFilesBench(): Promise<{ label: string; value: string }[]> {
  const root = makeKiln(NOTES);
  try {
    const readNote = createKilnTools({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false }).find((t) => t.name === 'read_note')!;
    const paths = Array.from({ length: CALLS }, (_, i) => `folder${i % 25}/sub${i % 3}/note${i % NOTES}.md`);
    const readMs = await best(5, async () => {
      for (const path of paths) {
        const result = await readNote.call({ path });
        if (result.isError) throw new Error(JSON.stringify(result.content));
      }
    });
    const first = index(root);
    await first.update();
    await first.dispose();
    const noopMs = await best(5, async () => {
      const again = index(root);
      const report = await again.update();
      if (report.unchanged !== NOTES) throw new Error(`expected ${NOTES} unchanged, got ${report.unchanged}`);
      await again.dispose();
    });
    // Every note's time changes (content does not): the index must open, read and hash each one.
    const touchedMs = await best(
      5,
      async () => {
        const again = index(root);
        const report = await again.update();
        if (report.unchanged !== NOTES) throw new Error(`expected ${NOTES} unchanged, got ${report.unchanged}`);
        await again.dispose();
      },
      (round) => {
        const when = new Date(Date.now() - (round + 1) * 60_000);
        for (let i = 0; i < NOTES; i++) utimesSync(join(root, `folder${i % 25}`, `sub${i % 3}`, `note${i}.md`), when, when);
      },
    );
    return [
      { label: `read_note, ${CALLS} sequential calls, best of 5`, value: `${readMs.toFixed(0)} ms (${((readMs * 1000) / CALLS).toFixed(0)} µs/call)` },
      { label: `no-op index pass, ${NOTES} notes (nothing changed), best of 5`, value: `${noopMs.toFixed(0)} ms` },
      { label: `index pass after every note's mtime changed (confined read + hash of ${NOTES} notes, nothing to embed), best of 5`, value: `${touchedMs.toFixed(0)} ms` },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  runKilnFilesBench().then((lines) => lines.forEach((l) => console.log(`${l.label}: ${l.value}`)));
}
