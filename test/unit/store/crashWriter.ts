// Child process of crash.test.ts: rewrites notes of a flat store in a loop, committing each batch
// (and compacting often), until it is killed or has written `maxRounds` rounds (third argument).
// Prints "<round>" after each committed round.
import { FlatStore } from '../../../src/core/index/store/flatStore';
import { chunksFor, randomVector, rng } from './helpers';

export const DIM = 48;
export const NOTES = 60;
export const PER_NOTE = 4;
export const HEADER = { providerType: 'local_cpu', model: 'm', dim: DIM };

export function noteVectors(note: number, round: number): Float32Array[] {
  const next = rng(note * 7919 + round * 104729 + 1);
  return Array.from({ length: PER_NOTE }, () => randomVector(DIM, next));
}

async function main(dir: string, maxRounds: number): Promise<void> {
  const store = new FlatStore(dir, HEADER, { compactMinDead: 100, compactRatio: 0.3 });
  await store.open();
  for (let round = 1; round <= maxRounds; round++) {
    for (let batch = 0; batch < NOTES; batch += 15) {
      for (let n = batch; n < batch + 15; n++) {
        const p = `n${n}.md`;
        await store.upsertNote(p, chunksFor(p, PER_NOTE, `r${round}`), noteVectors(n, round));
      }
      await store.commit();
    }
    process.stdout.write(`${round}\n`);
  }
  await store.dispose();
}

if (process.argv[2]) void main(process.argv[2], Number(process.argv[3] ?? Infinity));
