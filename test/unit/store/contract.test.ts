/**
 * One contract for every VectorStore kind: the indexer and search rely on exactly this behaviour.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openOrRebuildVectorStore, openVectorStore } from '../../../src/core/index/store/openStore';
import type { StoreHeader, StoreKind, VectorStore } from '../../../src/core/index/store/vectorStore';
import { chunksFor, exactTopK, randomVector, rng } from './helpers';

const DIM = 48;
const HEADER: StoreHeader = { providerType: 'local_cpu', model: 'Xenova/bge-small-en-v1.5', dim: DIM };

async function filled(kind: StoreKind, dir: string, notes: number, perNote: number, seed = 1) {
  const next = rng(seed);
  const store = await openVectorStore(kind, dir, HEADER);
  const items: { id: string; vector: Float32Array }[] = [];
  for (let n = 0; n < notes; n++) {
    const notePath = `notes/n${n}.md`;
    const vectors = Array.from({ length: perNote }, () => randomVector(DIM, next));
    await store.upsertNote(notePath, chunksFor(notePath, perNote, `h${n}`), vectors);
    vectors.forEach((vector, i) => items.push({ id: `${notePath}#${i}`, vector }));
  }
  await store.commit();
  return { store, items, next };
}

for (const kind of ['flat', 'vectra'] as StoreKind[]) {
  describe(`${kind} store contract`, () => {
    const tmp = () => mkdtempSync(join(tmpdir(), `hearth-store-${kind}-`));

    test('search ranks exactly as float32 cosine and returns chunk metadata', async () => {
      const dir = tmp();
      try {
        const { store, items, next } = await filled(kind, dir, 100, 6);
        assert.equal(store.count, 600);
        for (let t = 0; t < 20; t++) {
          const q = randomVector(DIM, next);
          const hits = await store.search(q, 10);
          assert.deepEqual(hits.map((h) => h.chunk.id), exactTopK(q, items, 10));
          for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
        }
        // A chunk's own vector finds it first, with its metadata intact.
        const [hit] = await store.search(items[37].vector, 1);
        assert.equal(hit.chunk.id, items[37].id);
        assert.equal(hit.chunk.notePath, 'notes/n6.md');
        assert.deepEqual(hit.chunk.headingPath, ['Top', 'Section 1']);
        assert.equal(hit.chunk.startLine, 11);
        assert.equal(hit.chunk.text, 'text of notes/n6.md chunk 1 — ünïcode');
        assert.equal(hit.chunk.contentHash, 'h6');
        assert.ok(Math.abs(hit.score - 1) < 1e-5);
        const filteredHits = await store.search(items[37].vector, 5, { filter: (c) => c.notePath !== 'notes/n6.md' });
        assert.equal(filteredHits.length, 5);
        assert.ok(filteredHits.every((h) => h.chunk.notePath !== 'notes/n6.md'));
        await store.dispose();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('replace and remove a note, then reopen from disk', async () => {
      const dir = tmp();
      try {
        const { store, items, next } = await filled(kind, dir, 30, 3);
        const fresh = [randomVector(DIM, next), randomVector(DIM, next)];
        await store.upsertNote('notes/n3.md', chunksFor('notes/n3.md', 2, 'h3b'), fresh);
        await store.removeNote('notes/n4.md');
        await store.upsertNote('notes/empty.md', [], [], 'hE');
        await store.commit();
        const expectItems = items.filter((i) => !i.id.startsWith('notes/n3.md') && !i.id.startsWith('notes/n4.md'));
        expectItems.push({ id: 'notes/n3.md#0', vector: fresh[0] }, { id: 'notes/n3.md#1', vector: fresh[1] });
        const check = async (s: VectorStore) => {
          assert.equal(s.count, 30 * 3 - 6 + 2);
          const hashes = s.noteHashes();
          assert.equal(hashes.get('notes/n3.md'), 'h3b');
          assert.equal(hashes.has('notes/n4.md'), false);
          assert.equal(hashes.get('notes/empty.md'), 'hE');
          assert.equal(hashes.size, 30);
          assert.equal([...s.chunks()].length, s.count);
          for (let t = 0; t < 10; t++) {
            const q = randomVector(DIM, next);
            assert.deepEqual((await s.search(q, 8)).map((h) => h.chunk.id), exactTopK(q, expectItems, 8));
          }
          assert.equal((await s.search(fresh[1], 1))[0].chunk.id, 'notes/n3.md#1');
        };
        await check(store);
        await store.dispose();
        const reopened = await openVectorStore(kind, dir, HEADER);
        await check(reopened);
        // Uncommitted writes do not survive a close.
        await reopened.removeNote('notes/n5.md');
        await reopened.dispose();
        const again = await openVectorStore(kind, dir, HEADER);
        assert.equal(again.noteHashes().get('notes/n5.md'), 'h5');
        await again.clear();
        assert.equal(again.count, 0);
        assert.deepEqual(await again.search(fresh[0], 3), []);
        await again.dispose();
        assert.equal((await openVectorStore(kind, dir, HEADER)).count, 0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a different provider, model or dimension is a header mismatch', async () => {
      const dir = tmp();
      try {
        const { store } = await filled(kind, dir, 3, 2);
        await store.dispose();
        for (const other of [{ ...HEADER, model: 'other' }, { ...HEADER, providerType: 'cloud_a' }, { ...HEADER, dim: 64 }]) {
          await assert.rejects(openVectorStore(kind, dir, other), (e: { code?: string }) => e.code === 'index.header_mismatch');
        }
        assert.equal((await openVectorStore(kind, dir, HEADER)).count, 6);
        const other = { ...HEADER, model: 'other' };
        const { store: rebuilt, rebuilt: why } = await openOrRebuildVectorStore(kind, dir, other);
        assert.equal(why?.code, 'index.header_mismatch');
        assert.equal(rebuilt.count, 0);
        assert.deepEqual(rebuilt.header, other);
        await rebuilt.dispose();
        assert.equal((await openOrRebuildVectorStore(kind, dir, other)).rebuilt, undefined);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a damaged index file is reported as corrupt (on open, or on first reading the damaged vector)', async () => {
      const dir = tmp();
      try {
        const { store, items } = await filled(kind, dir, 20, 3);
        await store.dispose();
        for (const name of readdirSync(dir)) {
          if (name.endsWith('.tmp') || name === 'hearth-header.json') continue;
          const file = join(dir, name);
          const original = readFileSync(file);
          if (original.length === 0) continue;
          const damaged = Buffer.from(original);
          damaged[Math.floor(damaged.length / 2)] ^= 0x5a;
          writeFileSync(file, name.endsWith('.json') ? damaged.subarray(0, damaged.length - 7) : damaged);
          const useAll = async () => {
            const s = await openVectorStore(kind, dir, HEADER);
            for (const item of items) await s.search(item.vector, 1);
          };
          await assert.rejects(useAll(), (e: { code?: string }) => e.code === 'index.corrupt', name);
          writeFileSync(file, original);
        }
        assert.equal((await openVectorStore(kind, dir, HEADER)).count, 60);
        writeFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.json'))!), '{"trunc');
        const { store: rebuilt, rebuilt: why } = await openOrRebuildVectorStore(kind, dir, HEADER);
        assert.equal(why?.code, 'index.corrupt');
        assert.equal(rebuilt.count, 0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
