// lexical.bin at the size where reading it takes several slices: the checksum over 4 MB slices, the
// terms and notes decoded 10k at a time — read back whole, and damage past the first slice found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEXICAL_FILE, LexicalFileError, readLexicalFile, writeLexicalFile } from '../../../src/core/index/words/lexicalFile';
import type { NoteBm25Snapshot } from '../../../src/core/index/words/noteBm25Snapshot';
import { FIELDS } from '../../../src/core/index/words/noteFields';
import { TermList } from '../../../src/core/index/words/termList';

/** A snapshot of `notes` notes with `terms` distinct terms, each term posted in two notes. */
function largeSnapshot(notes: number, terms: number): { snapshot: NoteBm25Snapshot; hashes: Map<string, string> } {
  const offsets = new Uint32Array(terms + 1);
  const postDocs = new Uint32Array(terms * 2);
  const postTfs = new Uint16Array(terms * 2 * FIELDS.length);
  for (let t = 0; t < terms; t++) {
    offsets[t + 1] = (t + 1) * 2;
    postDocs[2 * t] = t % notes;
    postDocs[2 * t + 1] = (t * 7 + 1) % notes;
    postTfs.fill(1 + (t % 3), 2 * t * FIELDS.length, (2 * t + 2) * FIELDS.length);
  }
  const lengths = new Float32Array(notes * FIELDS.length).map((_, i) => 1 + (i % 50));
  // Paths with what a row must survive: a tab, a newline, quotes, non-Latin letters.
  const paths = Array.from({ length: notes }, (_, i) => (i % 1000 === 0 ? `odd/"quoted"\tname\n${i}.md` : `folder${i % 20}/日本-note-${i}.md`));
  return {
    snapshot: { terms: TermList.of(Array.from({ length: terms }, (_, t) => `term${t}word`)), offsets, postDocs, postTfs, lengths, notes: paths.map((path, i) => ({ path, chunks: 1 + (i % 4) })) },
    hashes: new Map(paths.map((path, i) => [path, `hash${i}`])),
  };
}

test('a lexical file of several 4 MB slices reads back whole; a flipped byte past the first slice is damage', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-lexical-'));
  try {
    const { snapshot, hashes } = largeSnapshot(30_000, 400_000);
    await writeLexicalFile(dir, snapshot, hashes);
    const file = join(dir, LEXICAL_FILE);
    assert.ok(statSync(file).size > 3 * (4 << 20), `${statSync(file).size} bytes: several checksum slices`);

    const read = await readLexicalFile(dir);
    assert.ok(read);
    assert.deepEqual([...read.snapshot.terms], [...snapshot.terms]);
    assert.deepEqual(read.snapshot.notes, snapshot.notes);
    assert.deepEqual(read.hashes, hashes);
    assert.deepEqual([...read.snapshot.offsets], [...snapshot.offsets]);
    assert.deepEqual([...read.snapshot.postDocs], [...snapshot.postDocs]);
    assert.deepEqual([...read.snapshot.postTfs], [...snapshot.postTfs]);
    assert.deepEqual([...read.snapshot.lengths], [...snapshot.lengths]);

    const good = readFileSync(file);
    for (const at of [(4 << 20) + 123, good.length - 7]) {
      const damaged = Buffer.from(good);
      damaged[at] ^= 0x20;
      writeFileSync(file, damaged);
      await assert.rejects(readLexicalFile(dir), (error: unknown) => error instanceof LexicalFileError && error.code === 'index.lexical_damaged', `byte ${at}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lexical files at the slice boundaries read back whole (0, 1, 3 999–4 001 terms and notes; 100 000 and 100 002 postings); a posting naming a missing note is found at either side of a check slice and at the end', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-lexical-edges-'));
  try {
    for (const [notes, terms] of [[0, 0], [1, 0], [1, 1], [3_999, 3_999], [4_000, 4_000], [4_001, 4_001], [4_000, 50_000], [4_001, 50_001]]) {
      const { snapshot, hashes } = largeSnapshot(notes, terms);
      await writeLexicalFile(dir, snapshot, hashes);
      const read = await readLexicalFile(dir);
      assert.ok(read, `${notes} notes, ${terms} terms`);
      assert.deepEqual([...read.snapshot.terms], [...snapshot.terms], `${notes} notes, ${terms} terms`);
      assert.deepEqual(read.snapshot.notes, snapshot.notes, `${notes} notes, ${terms} terms`);
      assert.deepEqual(read.hashes, hashes);
      assert.deepEqual([...read.snapshot.postDocs], [...snapshot.postDocs]);
    }
    const { snapshot, hashes } = largeSnapshot(4_000, 50_001);
    for (const at of [99_999, 100_000, 100_001, snapshot.postDocs.length - 1]) {
      const postDocs = Uint32Array.from(snapshot.postDocs);
      postDocs[at] = 4_000;
      await writeLexicalFile(dir, { ...snapshot, postDocs }, hashes);
      await assert.rejects(readLexicalFile(dir), (error: unknown) => error instanceof LexicalFileError && /missing note/.test(error.message), `posting ${at}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
