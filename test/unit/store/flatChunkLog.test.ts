// The flat store's chunk log read as a stream (issue 31): lines across the 4 MB read slices and a
// line longer than a slice come back whole; each note's rows stay in the file until shown, and
// are still read after the store compacted that file away; a truncated log is index.corrupt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlatStore } from '../../../src/core/index/store/flatStore';
import { chunksFor, randomVector, rng } from './helpers';

const dim = 8;
const header = { providerType: 'local_cpu', model: 'm', dim };

test('a chunk log of several read slices, one line longer than a slice, reads back every chunk as written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-flat-log-'));
  const next = rng(5);
  try {
    const writer = new FlatStore(dir, header);
    await writer.open();
    const texts = new Map<string, string>();
    // ~10 MB of notes of 300 KB (lines across slice ends) and one note of 6 MB (a line past a slice).
    for (let n = 0; n < 33; n++) {
      const notePath = `n${n}.md`;
      const text = `${notePath} ${'ü word '.repeat(n === 7 ? 800_000 : 40_000)} end`;
      texts.set(notePath, text);
      await writer.upsertNote(notePath, chunksFor(notePath, 1, `h${n}`).map((c) => ({ ...c, text })), [randomVector(dim, next)]);
    }
    await writer.commit();
    await writer.dispose();
    const log = readdirSync(dir).find((f) => f.startsWith('chunks-'))!;

    const reader = new FlatStore(dir, header);
    await reader.open();
    assert.equal(reader.count, 33);
    for (const [notePath, text] of texts) {
      const [chunk] = reader.noteChunks(notePath);
      assert.equal(chunk.text, text, notePath);
      assert.equal(chunk.contentHash, `h${notePath.slice(1, -3)}`);
    }
    await reader.dispose();

    truncateSync(join(dir, log), 9 << 20);
    const truncated = new FlatStore(dir, header);
    await assert.rejects(truncated.open(), (e: { code?: string; message?: string }) => e.code === 'index.corrupt' && /shorter/.test(e.message ?? ''));
    await truncated.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a note read from disk shows its rows from the log it was read from: after another process compacted that log away, and not after the store closed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-flat-log-'));
  const next = rng(9);
  try {
    const writer = new FlatStore(dir, header);
    await writer.open();
    for (let n = 0; n < 8; n++) await writer.upsertNote(`n${n}.md`, chunksFor(`n${n}.md`, 2, 'old'), [randomVector(dim, next), randomVector(dim, next)]);
    await writer.commit();
    await writer.dispose();

    const reader = new FlatStore(dir, header);
    await reader.open();
    const hits = await reader.search(randomVector(dim, next), 4);
    // Another process rewrites every note and compacts: the log the reader read is removed.
    const other = new FlatStore(dir, header, { compactMinDead: 1, compactRatio: 0.1 });
    await other.open();
    for (let n = 0; n < 8; n++) await other.upsertNote(`n${n}.md`, chunksFor(`n${n}.md`, 1, 'new'), [randomVector(dim, next)]);
    await other.commit();
    await other.dispose();
    assert.ok(readdirSync(dir).every((f) => !f.startsWith('chunks-1')), 'the first log is gone');
    for (const hit of hits) assert.equal(hit.chunk.contentHash, 'old', 'read from the log the search saw');

    const late = (await reader.search(randomVector(dim, next), 8)).find((h) => !hits.some((seen) => seen.notePath === h.notePath))!;
    await reader.dispose();
    assert.throws(() => late.chunk, (e: { code?: string; message?: string }) => e.code === 'index.usage' && /closed/.test(e.message ?? ''));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
