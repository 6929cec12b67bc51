/**
 * A writer killed with SIGKILL at arbitrary moments (mid-append, mid-manifest, mid-compaction)
 * leaves a flat index that opens and is consistent: every note's chunks carry the vectors written
 * with the same content hash, and nothing half-written is visible.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlatStore } from '../../../src/core/index/store/flatStore';
import { HEADER, NOTES, PER_NOTE, noteVectors } from './crashWriter';

function runAndKill(dir: string, afterMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crashWriter.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let rounds = 0;
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => {
      rounds += d.toString().split('\n').filter(Boolean).length;
      // Start the clock once the writer is really writing (tsx start-up time varies).
      timer ??= setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(rounds);
      else reject(new Error(`writer exited by itself (${code})`));
    });
  });
}

test('a flat index killed mid-write opens consistent, repeatedly', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-crash-'));
  try {
    let lastRounds = 0;
    for (const afterMs of [3, 17, 41, 90, 150]) {
      const rounds = await runAndKill(dir, afterMs);
      assert.ok(rounds >= 1);
      const store = new FlatStore(dir, HEADER);
      await store.open();
      const hashes = store.noteHashes();
      assert.equal(hashes.size, NOTES, 'every note present after the first round');
      assert.equal(store.count, NOTES * PER_NOTE);
      assert.equal([...store.chunks()].length, NOTES * PER_NOTE);
      for (const [p, hash] of hashes) {
        const note = Number(p.slice(1, -3));
        const round = Number(hash.slice(1));
        // The writer restarts at round 1 on every run, so any round up to what it reached (+1 in flight).
        assert.ok(round >= 1 && round <= Math.max(rounds, lastRounds) + 1, `${p} at ${hash}`);
        const vectors = noteVectors(note, round);
        for (let i = 0; i < PER_NOTE; i++) {
          const [hit] = await store.search(vectors[i], 1);
          assert.equal(hit.chunk.id, `${p}#${i}`);
          assert.equal(hit.chunk.contentHash, hash);
          assert.ok(hit.score > 0.9999, `${p}#${i} vector matches its metadata`);
        }
      }
      await store.dispose();
      lastRounds = rounds;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
