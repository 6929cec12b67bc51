/**
 * The editor, the CLI and the gateway open one flat index at once. A writer process commits and
 * compacts while this process opens the index over and over: no open may fail or see a torn state,
 * the writer must finish every round (nothing it needs is truncated or deleted under it), and the
 * index it leaves is whole — so nothing would be cleared and re-embedded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlatStore } from '../../../src/core/index/store/flatStore';
import { HEADER, NOTES, PER_NOTE, noteVectors } from '../store/crashWriter';

const ROUNDS = 40;
const MAX_OPENS = 300;

async function checkOpen(dir: string): Promise<number> {
  const store = new FlatStore(dir, HEADER);
  await store.open();
  try {
    const hashes = store.noteHashes();
    assert.equal(hashes.size % 15, 0, 'whole batches only');
    assert.equal(store.count, hashes.size * PER_NOTE);
    for (const [p, hash] of hashes) {
      const note = Number(p.slice(1, -3));
      const vectors = noteVectors(note, Number(hash.slice(1)));
      const [hit] = await store.search(vectors[note % PER_NOTE], 1);
      assert.equal(hit.chunk.id, `${p}#${note % PER_NOTE}`);
      assert.equal(hit.chunk.contentHash, hash);
    }
    return hashes.size;
  } finally {
    await store.dispose();
  }
}

test('opening the flat index while another process commits and compacts never corrupts it', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-race-'));
  try {
    const writer = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../store/crashWriter.ts'), dir, String(ROUNDS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let rounds = 0;
    writer.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    writer.stdout.on('data', (d: Buffer) => (rounds += d.toString().split('\n').filter(Boolean).length));
    const exited = new Promise<number | null>((resolve) => writer.on('exit', (code) => resolve(code)));
    let done = false;
    void exited.then(() => (done = true));
    // A temp manifest of another (live) writer is never this opener's to delete.
    let opens = 0;
    let sawData = 0;
    while (!done && opens < MAX_OPENS) {
      if (!existsSync(join(dir, 'manifest.json'))) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      const size = await checkOpen(dir);
      if (size > 0) sawData++;
      opens++;
    }
    assert.equal(await exited, 0, `the writer failed: ${stderr}`);
    assert.equal(rounds, ROUNDS);
    assert.ok(sawData > 0, 'the opener raced the writer at least once');
    assert.equal(await checkOpen(dir), NOTES);
    const last = new FlatStore(dir, HEADER);
    await last.open();
    assert.deepEqual(new Set(last.noteHashes().values()), new Set([`r${ROUNDS}`]));
    await last.dispose();
    assert.equal(existsSync(join(dir, 'writer.lock')), false, 'the lock is released');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A store in `dir` with one committed note, still open. */
async function committedStore(dir: string): Promise<FlatStore> {
  const store = new FlatStore(dir, HEADER);
  await store.open();
  await store.upsertNote('n0.md', [], [], 'r1');
  await store.commit();
  return store;
}

test('leftovers are trimmed only by the lock holder: a live writer keeps its temp manifest and appended bytes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-race-'));
  try {
    const writer = await committedStore(dir);
    // Another process is mid-commit: it holds the lock and has written its temp manifest.
    const temp = join(dir, 'manifest.json.999999.tmp');
    writeFileSync(temp, '{}');
    writeFileSync(join(dir, 'writer.lock'), JSON.stringify({ pid: process.ppid, host: (await import('node:os')).hostname(), token: 'other', since: Date.now() }));
    const opener = new FlatStore(dir, HEADER);
    await opener.open();
    await opener.dispose();
    assert.ok(existsSync(temp), 'the other writer’s temp manifest survives an open');
    // Its holder gone (a pid that is not running), the next open takes the lock over and trims.
    writeFileSync(join(dir, 'writer.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), token: 'dead', since: Date.now() }));
    const again = new FlatStore(dir, HEADER);
    await again.open();
    await again.dispose();
    assert.ok(!existsSync(temp), 'a dead writer’s temp manifest is trimmed under the lock');
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.lock')), []);
    await writer.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an open with nothing left over changes nothing in the folder (no lock taken only to find that out)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-race-'));
  try {
    await (await committedStore(dir)).dispose();
    const { statSync, utimesSync } = await import('node:fs');
    const past = new Date(Date.now() - 60_000);
    utimesSync(dir, past, past);
    const reader = new FlatStore(dir, HEADER);
    await reader.open();
    await reader.dispose();
    assert.ok(Math.abs(statSync(dir).mtimeMs - past.getTime()) < 1000, 'no file was created or removed in the folder');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
