/** What only the flat store has: the SIMD kernel, compaction, appending instead of rewriting. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { createMemory, instantiateInt8Scan } from '../../../src/core/index/store/int8Kernel';
import { readChecked } from '../../../src/core/index/store/flatFiles';
import { FlatStore } from '../../../src/core/index/store/flatStore';
import { chunksFor, exactTopK, randomVector, rng } from './helpers';

test('the wasm SIMD kernel computes the same int8 dot products as scalar code', () => {
  const memory = createMemory(4);
  const scan = instantiateInt8Scan(memory);
  const next = rng(9);
  const dimPad = 400; // 25 steps of 16
  const n = 300;
  const bytes = new Int8Array(memory.buffer);
  for (let i = 0; i < dimPad * (n + 1); i++) bytes[i] = Math.floor(next() * 255) - 127;
  scan(0, dimPad, n, dimPad, dimPad * (n + 1));
  const out = new Int32Array(memory.buffer, dimPad * (n + 1), n);
  for (let v = 0; v < n; v++) {
    let s = 0;
    for (let j = 0; j < dimPad; j++) s += bytes[j] * bytes[dimPad * (v + 1) + j];
    assert.equal(out[v], s);
  }
});

test('updating a note appends; compaction drops dead slots and keeps results exact across reopen', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-flat-'));
  const dim = 40; // not a multiple of 16: padded slots
  const header = { providerType: 'local_cpu', model: 'm', dim };
  const next = rng(3);
  const vectors = new Map<string, Float32Array[]>();
  try {
    const store = new FlatStore(dir, header, { compactMinDead: 50, compactRatio: 0.4 });
    await store.open();
    for (let n = 0; n < 40; n++) {
      const p = `n${n}.md`;
      vectors.set(p, [randomVector(dim, next), randomVector(dim, next)]);
      await store.upsertNote(p, chunksFor(p, 2, 'a'), vectors.get(p)!);
    }
    await store.commit();
    const q8 = () => readdirSync(dir).find((f) => f.endsWith('.q8'))!;
    const firstFile = q8();
    const size = statSync(join(dir, firstFile)).size;
    // One note changes: the vector file grows by its two slots, nothing is rewritten.
    vectors.set('n0.md', [randomVector(dim, next), randomVector(dim, next)]);
    await store.upsertNote('n0.md', chunksFor('n0.md', 2, 'b'), vectors.get('n0.md')!);
    await store.commit();
    assert.equal(q8(), firstFile);
    assert.equal(statSync(join(dir, firstFile)).size, size + 2 * 48);
    // Many changes: dead slots pass the threshold, a new generation replaces the files.
    for (let n = 0; n < 30; n++) {
      const p = `n${n}.md`;
      vectors.set(p, [randomVector(dim, next), randomVector(dim, next)]);
      await store.upsertNote(p, chunksFor(p, 2, 'c'), vectors.get(p)!);
    }
    await store.commit();
    assert.notEqual(q8(), firstFile);
    assert.equal(statSync(join(dir, q8())).size, 80 * 48);
    assert.equal(readdirSync(dir).length, 4, 'old generation removed');
    const items = [...vectors].flatMap(([p, vs]) => vs.map((vector, i) => ({ id: `${p}#${i}`, vector })));
    const reopened = new FlatStore(dir, header);
    await reopened.open();
    for (const s of [store, reopened]) {
      assert.equal(s.count, 80);
      assert.equal(s.noteHashes().get('n5.md'), 'c');
      assert.equal(s.noteHashes().get('n35.md'), 'a');
      for (let t = 0; t < 15; t++) {
        const q = randomVector(dim, next);
        assert.deepEqual((await s.search(q, 10)).map((h) => h.chunk.id), exactTopK(q, items, 10));
      }
    }
    await store.dispose();
    await reopened.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a second writer on the same index is told to reopen instead of appending over the first', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-flat-'));
  const header = { providerType: 'local_cpu', model: 'm', dim: 16 };
  const next = rng(5);
  try {
    const a = new FlatStore(dir, header);
    await a.open();
    const b = new FlatStore(dir, header);
    await b.open();
    await a.upsertNote('a.md', chunksFor('a.md', 1, 'a'), [randomVector(16, next)]);
    await a.commit();
    await b.upsertNote('b.md', chunksFor('b.md', 1, 'b'), [randomVector(16, next)]);
    await assert.rejects(b.commit(), (e: { code?: string }) => e.code === 'index.changed_on_disk');
    await b.dispose();
    const c = new FlatStore(dir, header);
    await c.open();
    assert.deepEqual([...c.noteHashes()], [['a.md', 'a']]);
    await c.dispose();
    await a.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readChecked reads a file larger than one slice whole and checks its CRC across the slices: damage past the first slice or a short file is corrupt', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-readchecked-'));
  try {
    const file = join(dir, 'vectors-1.q8');
    // Three and a half 4 MB slices of varied bytes.
    const data = Buffer.alloc(14 << 20);
    for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
    writeFileSync(file, data);
    const state = { bytes: data.length, crc: crc32(data) };
    assert.ok(Buffer.from(await readChecked(file, state)).equals(data));
    const into = new Uint8Array(data.length + 16);
    await readChecked(file, state, into);
    assert.ok(Buffer.from(into.subarray(0, data.length)).equals(data), 'read into the caller\'s buffer');
    const damaged = Buffer.from(data);
    damaged[(9 << 20) + 3] ^= 0x01;
    writeFileSync(file, damaged);
    await assert.rejects(readChecked(file, state), (e: { code?: string; message?: string }) => e.code === 'index.corrupt' && /checksum/.test(e.message ?? ''));
    writeFileSync(file, data.subarray(0, 5 << 20));
    await assert.rejects(readChecked(file, state), (e: { code?: string; message?: string }) => e.code === 'index.corrupt' && /shorter/.test(e.message ?? ''));
    await assert.rejects(readChecked(join(dir, 'missing.q8'), state), (e: { code?: string }) => e.code === 'index.corrupt');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hits read their chunk when asked, and it is the chunk the search found: after the note was rewritten, removed or compacted away, and across reopen', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-flat-lazy-'));
  const dim = 24;
  const header = { providerType: 'local_cpu', model: 'm', dim };
  const next = rng(17);
  try {
    const writer = new FlatStore(dir, header, { compactMinDead: 4, compactRatio: 0.1 });
    await writer.open();
    const target = randomVector(dim, next);
    for (let n = 0; n < 6; n++) await writer.upsertNote(`n${n}.md`, chunksFor(`n${n}.md`, 3, 'old'), [target, randomVector(dim, next), randomVector(dim, next)]);
    await writer.commit();
    await writer.dispose();
    // Opened from disk: chunk rows are still bytes when the search runs.
    const store = new FlatStore(dir, header, { compactMinDead: 4, compactRatio: 0.1 });
    await store.open();
    const hits = await store.search(target, 6);
    assert.deepEqual(hits.map((h) => h.notePath).sort(), ['n0.md', 'n1.md', 'n2.md', 'n3.md', 'n4.md', 'n5.md']);
    // Every note is rewritten (new text), one removed, and the dead slots compacted: slots move.
    for (let n = 0; n < 5; n++) await store.upsertNote(`n${n}.md`, chunksFor(`n${n}.md`, 2, 'new').map((c) => ({ ...c, text: `rewritten ${c.text}` })), [randomVector(dim, next), randomVector(dim, next)]);
    await store.removeNote('n5.md');
    await store.commit();
    for (const hit of hits) {
      assert.equal(hit.chunk.notePath, hit.notePath);
      assert.equal(hit.chunk.id, `${hit.notePath}#0`, 'the chunk the vector belonged to');
      assert.doesNotMatch(hit.chunk.text, /^rewritten/, 'as it was when the search ran');
      assert.equal(hit.chunk.contentHash, 'old');
    }
    // A new search sees the new chunks.
    const fresh = await store.search(target, 10);
    assert.ok(fresh.every((h) => h.chunk.contentHash === 'new' && h.chunk.text.startsWith('rewritten')));
    await store.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a hit whose chunk row is damaged (checksum made right: not written by Hearth) says index.corrupt when read: never a record of the wrong shape or another chunk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-flat-rows-'));
  const dim = 16;
  const header = { providerType: 'local_cpu', model: 'm', dim };
  const next = rng(23);
  try {
    const writer = new FlatStore(dir, header);
    await writer.open();
    const target = randomVector(dim, next);
    await writer.upsertNote('n0.md', chunksFor('n0.md', 2, 'h0'), [target, randomVector(dim, next)]);
    await writer.upsertNote('n1.md', chunksFor('n1.md', 2, 'h1'), [randomVector(dim, next), randomVector(dim, next)]);
    await writer.commit();
    await writer.dispose();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { gen: number; meta: { bytes: number; crc: number } };
    const metaFile = join(dir, `chunks-${manifest.gen}.jsonl`);
    const good = readFileSync(metaFile).subarray(0, manifest.meta.bytes).toString('utf8');
    const goodRow = ['n0.md#0', 'Title', ['Top'], 1, 9, 'text'];
    const cases: [string, string][] = [
      ['rows that are not JSON', '[["n0.md#0",'],
      ['one row for two slots', JSON.stringify([goodRow])],
      ['a heading path that is not a list', JSON.stringify([['n0.md#0', 'Title', 'Top', 1, 9, 'text'], goodRow])],
      ['a text that is not a string', JSON.stringify([['n0.md#0', 'Title', ['Top'], 1, 9, { text: 1 }], goodRow])],
      ['a line that is not a number', JSON.stringify([['n0.md#0', 'Title', ['Top'], '1', 9, 'text'], goodRow])],
      ['an id that is not a string', JSON.stringify([[7, 'Title', ['Top'], 1, 9, 'text'], goodRow])],
    ];
    for (const [what, rows] of cases) {
      const lines = good.split('\n').map((line) => (line.includes('"p":"n0.md"') ? `${line.slice(0, line.indexOf('\t'))}\t${rows}` : line));
      const bytes = Buffer.from(lines.join('\n'));
      writeFileSync(metaFile, bytes);
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, meta: { bytes: bytes.length, crc: crc32(bytes) } }));
      const store = new FlatStore(dir, header);
      await store.open();
      const [hit] = await store.search(target, 1);
      assert.equal(hit.notePath, 'n0.md', what);
      assert.throws(() => hit.chunk, (error: unknown) => (error as { code?: string }).code === 'index.corrupt', what);
      // The other note reads as written.
      assert.equal(store.noteChunks?.('n1.md')[1].text, chunksFor('n1.md', 2, 'h1')[1].text, what);
      await store.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file where the index folder goes: opening fails with index.folder_unusable naming the folder, and the file is left as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-flat-folder-'));
  const where = join(dir, 'flat');
  try {
    writeFileSync(where, 'my notes, not an index');
    const store = new FlatStore(where, { providerType: 'local_cpu', model: 'm', dim: 8 });
    await assert.rejects(store.open(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'index.folder_unusable');
      assert.ok(error.message.includes(where), error.message);
      assert.match(error.message, /a file is in its place \(EEXIST\)/);
      return true;
    });
    assert.equal(readFileSync(where, 'utf8'), 'my notes, not an index');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a chunk log (checksum right) naming a slot run past the vectors, one already taken, or not a whole number is index.corrupt on open, never a store with wrong slots', async () => {
  const dim = 16;
  const header = { providerType: 'local_cpu', model: 'm', dim };
  const next = rng(23);
  const edits: [string, (slots: number[]) => number[]][] = [
    ['a run past the vectors', (s) => s.map((x) => x + 1000)],
    ['a run over the other note', (s) => s.map((_, i) => i)],
    ['a run starting mid-slot', (s) => s.map((x) => x + 0.5)],
    ['slots out of order, one taken', (s) => [s[1], 0]],
  ];
  for (const [what, edit] of edits) {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-flat-slots-'));
    try {
      const store = new FlatStore(dir, header);
      await store.open();
      for (const p of ['a.md', 'b.md']) await store.upsertNote(p, chunksFor(p, 2, 'h'), [randomVector(dim, next), randomVector(dim, next)]);
      await store.commit();
      await store.dispose();
      const manifestFile = join(dir, 'manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { gen: number; meta: { bytes: number; crc: number } };
      const logFile = join(dir, `chunks-${manifest.gen}.jsonl`);
      const lines = readFileSync(logFile, 'utf8').split('\n');
      const tab = lines[1].indexOf('\t');
      const head = JSON.parse(lines[1].slice(0, tab)) as { s: number[] };
      head.s = edit(head.s);
      lines[1] = `${JSON.stringify(head)}${lines[1].slice(tab)}`;
      const bytes = Buffer.from(lines.join('\n'));
      writeFileSync(logFile, bytes);
      manifest.meta = { bytes: bytes.length, crc: crc32(bytes) };
      writeFileSync(manifestFile, JSON.stringify(manifest));
      await assert.rejects(new FlatStore(dir, header).open(), { code: 'index.corrupt' }, what);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
