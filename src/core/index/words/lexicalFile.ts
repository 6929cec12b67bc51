import { setImmediate as nextTurn } from 'node:timers/promises';
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { HearthError } from '../../errors';
import type { NoteBm25Snapshot } from './noteBm25Snapshot';
import { DEFAULT_FIELDS, FIELDS } from './noteFields';
import { bodyLayout, pad4, type LexicalHeader } from './lexicalLayout';
import { TermList } from './termList';

/**
 * The lexical (BM25) index on disk, beside the vector store: `lexical.bin` in the store's folder.
 * Layout: a magic line, a length-prefixed JSON header (counts, the ranking parameters it was built
 * with, a CRC-32 of the rest), then the term list, the postings and field lengths as typed arrays,
 * where each note's row starts, the notes in path order and each term's postings' CRC (version 3:
 * DiskLexicon reads only a query's postings, by position), and the notes it covers with the content
 * hash each was indexed at (one JSON row per line, so a large file is decoded a slice at a time
 * between turns of the event loop). See lexicalLayout.ts. Written to a temp file, synced
 * and renamed, so a reader sees a whole old file or a whole new one. Each note's content hash is
 * what keeps it consistent with the vector store: the index uses the file only for notes whose hash
 * equals the store's, and takes the others from the store — so a kill -9 between the store's commit
 * and this file's rename costs a few re-tokenized notes, never a wrong result.
 */
export const LEXICAL_FILE = 'lexical.bin';
const MAGIC = 'hearth-lexical\n';
export const LEXICAL_VERSION = 3;
/** Version 1 kept the notes as one JSON array (one parse of tens of ms at 50k notes): rebuilt quietly. */
const OLDER_VERSIONS = [1];
/** Version 2 lacks what a lazy reader needs (row starts, path order, term CRCs): read whole, then rewritten. */
export const READ_WHOLE_VERSIONS = [2];
/** Terms or notes decoded between two turns of the event loop (1–3 ms of work at 50k notes). */
const DECODE_SLICE = 4_000;
/** Postings checked between two turns (a million took 3–15 ms in one go). */
const CHECK_SLICE = 100_000;
/** The parameters the postings depend on: another tokenizer or field set means another index. */
export const LEXICAL_SHAPE = JSON.stringify({ fields: FIELDS, tokenizer: 3 });
export const LEXICAL_MAGIC = MAGIC;

export class LexicalFileError extends HearthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('index.lexical_damaged', message, options);
  }
}

export interface LexicalFile {
  snapshot: NoteBm25Snapshot;
  /** notePath → content hash the note was indexed at. */
  hashes: Map<string, string>;
  /** Read from a file of an earlier version: worth rewriting in this one. */
  older?: boolean;
  /** The store commit the file was written for (version 3 on), if known. */
  stamp?: string | null;
}

/** `stamp`: the store commit the snapshot reflects (VectorStore.commitStamp), when known. */
export async function writeLexicalFile(dir: string, snapshot: NoteBm25Snapshot, hashes: Map<string, string>, stamp?: string): Promise<void> {
  const termText = Buffer.from(snapshot.terms.text, 'utf8');
  // JSON never holds a raw newline, so the rows split on it whatever a path contains.
  const rows = snapshot.notes.map((n) => JSON.stringify([n.path, n.chunks, hashes.get(n.path) ?? '']));
  const notesText = Buffer.from(rows.join('\n'), 'utf8');
  const rowStarts = new Uint32Array(rows.length + 1);
  rows.forEach((row, i) => (rowStarts[i + 1] = rowStarts[i] + Buffer.byteLength(row, 'utf8') + 1));
  const order = Uint32Array.from(snapshot.notes.keys()).sort((a, b) => comparePaths(snapshot.notes[a].path, snapshot.notes[b].path));
  const termCrcs = postingCrcs(snapshot);
  const pad = (bytes: number) => Buffer.alloc(pad4(bytes) - bytes);
  const tfBytes = snapshot.postTfs.byteLength;
  const parts = [termText, pad(termText.length), asBytes(snapshot.offsets), asBytes(snapshot.postDocs), asBytes(snapshot.postTfs), pad(tfBytes)];
  const lazyParts = [asBytes(snapshot.lengths), asBytes(rowStarts), asBytes(order), asBytes(termCrcs), notesText];
  parts.push(...lazyParts);
  // The parts are checksummed and written as they are: a copy of the whole body (tens of MB at 100k chunks) doubled the writer's memory.
  const crc = crcOf(parts);
  const header: LexicalHeader = {
    format: 'hearth-lexical',
    version: LEXICAL_VERSION,
    shape: LEXICAL_SHAPE,
    params: JSON.stringify(DEFAULT_FIELDS),
    terms: snapshot.terms.length,
    postings: snapshot.postDocs.length,
    notes: snapshot.notes.length,
    termBytes: termText.length,
    notesBytes: notesText.length,
    crc,
    stamp: stamp ?? null,
    chunkTotal: snapshot.notes.reduce((sum, n) => sum + n.chunks, 0),
    lazyCrc: crcOf([termText, asBytes(snapshot.offsets), ...lazyParts]),
  };
  // Padded with spaces so the body starts 4-aligned: a reader then views the arrays in the file's bytes instead of copying them.
  const json = JSON.stringify(header);
  const headerText = Buffer.from(json.padEnd(pad4(MAGIC.length + 4 + json.length) - MAGIC.length - 4, ' '), 'utf8');
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32LE(headerText.length);
  // A store that keeps nothing in its folder (postgres) still gets this local cache.
  await fsp.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `${LEXICAL_FILE}.${process.pid}.tmp`);
  const fh = await fsp.open(tmp, 'w');
  try {
    await writeAll(fh, [Buffer.from(MAGIC), prefix, headerText, ...parts]);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, path.join(dir, LEXICAL_FILE));
}

/**
 * The lexical file of `dir`; undefined when there is none or it was built with other ranking
 * parameters (an upgrade: rebuilt quietly). Throws LexicalFileError when it is damaged or foreign.
 */
export async function readLexicalFile(dir: string, bytes: Promise<Buffer | undefined> = readLexicalBytes(dir)): Promise<LexicalFile | undefined> {
  const data = await bytes;
  if (!data) return undefined;
  try {
    if (data.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new Error('not a Hearth lexical index');
    const headerLength = data.readUInt32LE(MAGIC.length);
    const start = MAGIC.length + 4;
    const header = JSON.parse(data.subarray(start, start + headerLength).toString('utf8')) as LexicalHeader;
    if (header.format !== 'hearth-lexical') throw new Error('not a Hearth lexical index');
    if (OLDER_VERSIONS.includes(header.version)) return undefined;
    if (header.version !== LEXICAL_VERSION && !READ_WHOLE_VERSIONS.includes(header.version)) throw new Error(`unknown version ${header.version}`);
    if (header.shape !== LEXICAL_SHAPE || header.params !== JSON.stringify(DEFAULT_FIELDS)) return undefined;
    const body = data.subarray(start + headerLength);
    if ((await slicedCrc32(body)) !== header.crc) throw new Error('checksum mismatch');
    let at = 0;
    const take = (bytes: number) => {
      if (at + bytes > body.length) throw new Error('shorter than its header says');
      const slice = body.subarray(at, at + bytes);
      at += bytes;
      return slice;
    };
    // The event loop gets a turn between the steps (an editor opening a large kiln keeps responding).
    await nextTurn();
    const termText = take(header.termBytes).toString('utf8');
    take(pad4(header.termBytes) - header.termBytes);
    const offsets = typed(take((header.terms + 1) * 4), Uint32Array);
    const postDocs = typed(take(header.postings * 4), Uint32Array);
    await nextTurn();
    const postTfs = typed(take(header.postings * FIELDS.length * 2), Uint16Array);
    take(pad4(postTfs.byteLength) - postTfs.byteLength);
    const lengths = typed(take(header.notes * FIELDS.length * 4), Float32Array);
    const layout = bodyLayout(header);
    // Row starts, path order and term CRCs serve the lazy reader; the whole body's CRC covers them here.
    take(layout.notes[0] - layout.rowStarts[0]);
    const terms = TermList.parse(termText, header.terms);
    const notes: NoteBm25Snapshot['notes'] = [];
    const hashes = new Map<string, string>();
    for (const row of header.notes === 0 ? [] : await slicedLines(take(header.notesBytes).toString('utf8'))) {
      if (notes.length % DECODE_SLICE === DECODE_SLICE - 1) await nextTurn();
      const [notePath, chunks, hash] = JSON.parse(row) as [unknown, unknown, unknown];
      if (typeof notePath !== 'string' || typeof chunks !== 'number' || typeof hash !== 'string') throw new Error('a note row is malformed');
      notes.push({ path: notePath, chunks });
      hashes.set(notePath, hash);
    }
    if (terms.length !== header.terms || notes.length !== header.notes || offsets[header.terms] !== header.postings) throw new Error('inconsistent counts');
    // A term's postings are offsets[t] up to offsets[t + 1]: backwards or past the end, a search would read other terms' or none.
    if (offsets[0] !== 0 || descends(offsets)) throw new Error('the term offsets are out of order');
    if (anyNotCount(lengths)) throw new Error('a field length is not a count');
    for (let from = 0; from < postDocs.length; from += CHECK_SLICE) {
      if (from > 0) await nextTurn();
      if (anyAtOrAbove(postDocs, from, Math.min(postDocs.length, from + CHECK_SLICE), header.notes)) throw new Error('a posting names a missing note');
    }
    await nextTurn();
    return { snapshot: { terms, offsets, postDocs, postTfs, lengths, notes }, hashes, older: header.version !== LEXICAL_VERSION, stamp: header.stamp };
  } catch (error) {
    throw new LexicalFileError(`The lexical index in ${dir} is damaged (${(error as Error).message}); it is rebuilt from the vector store.`, { cause: error });
  }
}

/**
 * Whether a value in [from, to) is `limit` or more. A function of its own: the hot loop gets
 * optimized alone, quickly, not inside the whole decoder (whose optimizing compile took ~16 ms of
 * the second core, and a process ending meanwhile waits for it).
 */
function anyAtOrAbove(values: Uint32Array, from: number, to: number, limit: number): boolean {
  for (let i = from; i < to; i++) if (values[i] >= limit) return true;
  return false;
}

/** Whether a value is less than the one before it (a small hot loop, see anyAtOrAbove). */
function descends(values: Uint32Array): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] < values[i - 1]) return true;
  return false;
}

/** Whether a value is NaN, infinite or negative (a length in words: one such value skews every note's field average). */
function anyNotCount(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (!(values[i] >= 0 && values[i] < Infinity)) return true;
  return false;
}

/**
 * The lexical file's bytes, or undefined when there is none; readLexicalFile decodes them (a
 * caller may start the read early, while other files are read).
 */
export async function readLexicalBytes(dir: string): Promise<Buffer | undefined> {
  try {
    return await fsp.readFile(path.join(dir, LEXICAL_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LexicalFileError(`The lexical index in ${dir} cannot be read.`, { cause: error });
  }
}

/** Bytes checksummed between two returns to the event loop (about 2 ms of work). */
const CRC_SLICE = 4 << 20;

/** crc32 of a large buffer, a slice at a time: a 100k-chunk index's file is tens of MB. */
async function slicedCrc32(data: Buffer): Promise<number> {
  let crc = 0;
  for (let at = 0; at < data.length; at += CRC_SLICE) {
    crc = crc32(data.subarray(at, at + CRC_SLICE), crc);
    if (at + CRC_SLICE < data.length) await nextTurn();
  }
  return crc;
}

/** The lines of a large text, split a slice at a time. */
async function slicedLines(text: string): Promise<string[]> {
  const lines: string[] = [];
  for (let from = 0; from >= 0; ) {
    if (lines.length > 0) await nextTurn();
    from = pushLines(text, from, lines, DECODE_SLICE);
  }
  return lines;
}

/** Up to `count` lines of `text` from `from` onto `lines`; where the next starts, or -1 at the end (a small hot loop, see anyAtOrAbove). */
function pushLines(text: string, from: number, lines: string[], count: number): number {
  for (let i = 0; i < count; i++) {
    const newline = text.indexOf('\n', from);
    lines.push(text.slice(from, newline < 0 ? text.length : newline));
    if (newline < 0) return -1;
    from = newline + 1;
  }
  return from;
}

export function asBytes(array: ArrayBufferView): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

type TypedArrayOf<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number };

/**
 * The array in the file's bytes, viewed where they are aligned for its elements (a file Hearth
 * writes now: no copy of tens of MB at 100k chunks), else an aligned copy (a file of an earlier
 * release, whose header had any length).
 */
function typed<T>(bytes: Buffer, Type: TypedArrayOf<T>): T {
  if (bytes.byteOffset % Type.BYTES_PER_ELEMENT === 0) return new Type(bytes.buffer, bytes.byteOffset, bytes.length / Type.BYTES_PER_ELEMENT);
  const out = new ArrayBuffer(bytes.length);
  new Uint8Array(out).set(bytes);
  return new Type(out);
}

/** Every buffer written, in order (writev may write part of them: the rest follows). */
async function writeAll(fh: FileHandle, buffers: Buffer[]): Promise<void> {
  let pending = buffers.filter((b) => b.length > 0);
  while (pending.length > 0) {
    let { bytesWritten } = await fh.writev(pending);
    while (pending.length > 0 && bytesWritten >= pending[0].length) {
      bytesWritten -= pending[0].length;
      pending = pending.slice(1);
    }
    if (bytesWritten > 0) pending[0] = pending[0].subarray(bytesWritten);
  }
}

/** Paths in the order the file's path order lists them (UTF-16 code units, as DiskLexicon compares). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Each term's CRC-32 over its postDocs bytes, then its postTfs bytes. */
function postingCrcs(snapshot: NoteBm25Snapshot): Uint32Array {
  const { offsets, postDocs, postTfs } = snapshot;
  const docs = asBytes(postDocs);
  const tfs = asBytes(postTfs);
  const F = FIELDS.length;
  const crcs = new Uint32Array(snapshot.terms.length);
  for (let t = 0; t < crcs.length; t++) {
    const [from, to] = [offsets[t], offsets[t + 1]];
    if (to > from) crcs[t] = crc32(tfs.subarray(from * F * 2, to * F * 2), crc32(docs.subarray(from * 4, to * 4)));
  }
  return crcs;
}

/** CRC-32 of the parts in order. Empty parts are skipped: Node's crc32 of a view over an empty ArrayBuffer returns 0, not the running value. */
export function crcOf(parts: readonly Uint8Array[]): number {
  return parts.reduce((sum, part) => (part.length > 0 ? crc32(part, sum) : sum), 0);
}
