import { setImmediate as nextTurn } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import { openIndexFile, READ_SLICE } from './flatFiles';
import { StoreCorruptError, type ChunkRecord } from './vectorStore';

/** One entry of the flat store's chunk log: a note put (all its chunks) or removed. */
export type NoteLine =
  | { put: string; hash: string; chunks: { chunk: ChunkRecord; slot: number; scale: number; error: number; crc: number }[] }
  | { del: string };

/**
 * A decoded put keeps its chunk rows as the bytes of their JSON, a view into the chunk log read
 * from disk: opening a large index then decodes only what the scan needs (slots and their
 * quantization numbers), and neither turns megabytes of note text into strings nor leaves them to
 * the garbage collector; rows become ChunkRecords when shown.
 */
export type DecodedLine = { put: string; hash: string; slots: number[]; scales: number[]; errors: number[]; crcs: number[]; rows: Uint8Array | RowsAt } | { del: string };

/** Where a note's chunk rows lie in the chunk log file: read when one of its chunks is shown. */
export interface RowsAt {
  at: number;
  bytes: number;
}

type Row = [id: string, title: string, heading: string[], start: number, end: number, text: string];

interface Head {
  p?: string;
  d?: string;
  h?: string;
  s?: number[];
  q?: number[];
  e?: number[];
  k?: number[];
}

// A put is `<head JSON>\t<rows JSON>`: JSON never contains a raw tab, so the first tab splits them.
export function encodeNote(line: NoteLine): string {
  if ('del' in line) return JSON.stringify({ d: line.del } satisfies Head);
  const c = line.chunks;
  const head: Head = { p: line.put, h: line.hash, s: c.map((x) => x.slot), q: c.map((x) => x.scale), e: c.map((x) => x.error), k: c.map((x) => x.crc) };
  const rows = c.map(({ chunk }): Row => [chunk.id, chunk.title, chunk.headingPath, chunk.startLine, chunk.endLine, chunk.text]);
  return `${JSON.stringify(head)}\t${JSON.stringify(rows)}`;
}

const TAB = 9;

/** One line of the chunk log, as bytes (no newline); `lineAt`: where it starts in the file (its rows are then left there). */
export function decodeNote(line: Buffer, lineAt?: number): DecodedLine {
  const tab = line.indexOf(TAB);
  const head = JSON.parse(line.toString('utf8', 0, tab < 0 ? line.length : tab)) as Head;
  if (typeof head.d === 'string') return { del: head.d };
  const { p, h, s, q, e, k } = head;
  if (tab < 0 || typeof p !== 'string' || typeof h !== 'string' || !Array.isArray(s) || !Array.isArray(q) || !Array.isArray(e) || !Array.isArray(k)) {
    throw new Error('not a chunk log line');
  }
  if (q.length !== s.length || e.length !== s.length || k.length !== s.length) throw new Error('chunk log line lengths differ');
  const rows = lineAt === undefined ? line.subarray(tab + 1) : { at: lineAt + tab + 1, bytes: line.length - tab - 1 };
  return { put: p, hash: h, slots: s, scales: q, errors: e, crcs: k, rows };
}

/**
 * The chunk log file's committed bytes applied line by line as they are read, a slice at a time,
 * each put's rows left in the file (RowsAt): at 50k notes the log is ~57 MB, which a cold search
 * held whole only to show ten notes' text. Their CRC is checked at the end (the caller discards
 * what was applied when it throws); a line that does not decode goes to `damaged`, which throws.
 */
export async function readChunkLogFile(file: string, state: { bytes: number; crc: number }, apply: (line: DecodedLine) => void, damaged: (cause: unknown) => never): Promise<void> {
  const handle = await openIndexFile(file);
  let crc = 0;
  try {
    let buffer = Buffer.allocUnsafe(Math.min(READ_SLICE, Math.max(1, state.bytes)));
    /** Bytes at the buffer's start carried over from the last slice (a line not yet ended), and where they start in the file. */
    let carried = 0;
    let carriedAt = 0;
    for (let off = 0; off < state.bytes; ) {
      if (carried === buffer.length) {
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, carried);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, carried, Math.min(state.bytes - off, buffer.length - carried), off);
      if (bytesRead === 0) throw new StoreCorruptError(`An index file is shorter than recorded: ${file}.`);
      crc = crc32(buffer.subarray(carried, carried + bytesRead), crc);
      off += bytesRead;
      const filled = carried + bytesRead;
      const last = off === state.bytes;
      let start = 0;
      for (;;) {
        const newline = buffer.indexOf(10, start);
        if (newline < 0 || newline >= filled) {
          if (!last) break;
          if (start < filled) applyLine(buffer.subarray(start, filled), carriedAt + start, apply, damaged);
          start = filled;
          break;
        }
        if (newline > start) applyLine(buffer.subarray(start, newline), carriedAt + start, apply, damaged);
        start = newline + 1;
      }
      buffer.copy(buffer, 0, start, filled);
      carried = filled - start;
      carriedAt += start;
      await nextTurn();
    }
  } finally {
    await handle.close();
  }
  if (crc !== state.crc) throw new StoreCorruptError(`An index file fails its checksum: ${file}.`);
}

function applyLine(line: Buffer, lineAt: number, apply: (line: DecodedLine) => void, damaged: (cause: unknown) => never): void {
  let note: DecodedLine;
  try {
    note = decodeNote(line, lineAt);
  } catch (error) {
    damaged(error);
  }
  apply(note);
}

/** Parses a note's rows (checked: a damaged row is reported, not shown). */
export function parseRows(rows: Uint8Array, notePath: string, contentHash: string, expected: number): ChunkRecord[] {
  const parsed = JSON.parse(Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength).toString('utf8')) as Row[];
  if (!Array.isArray(parsed) || parsed.length !== expected) throw new Error('chunk rows do not match their slots');
  return parsed.map((r) => {
    if (!isRow(r)) throw new Error('not a chunk row');
    return { id: r[0], notePath, title: r[1], headingPath: r[2], startLine: r[3], endLine: r[4], text: r[5], contentHash };
  });
}

/** Six fields of their types: a row of the wrong shape would fail later, far from here (a heading path joined, a text sliced). */
function isRow(r: unknown): r is Row {
  if (!Array.isArray(r) || r.length !== 6) return false;
  const [id, title, heading, start, end, text] = r as unknown[];
  return (
    typeof id === 'string' &&
    typeof title === 'string' &&
    Array.isArray(heading) &&
    heading.every((h) => typeof h === 'string') &&
    Number.isInteger(start) &&
    Number.isInteger(end) &&
    typeof text === 'string'
  );
}
