import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChunkRecord } from './vectorStore';

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
export type DecodedLine = { put: string; hash: string; slots: number[]; scales: number[]; errors: number[]; crcs: number[]; rows: Uint8Array } | { del: string };

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

/** One line of the chunk log, as bytes (no newline). */
export function decodeNote(line: Buffer): DecodedLine {
  const tab = line.indexOf(TAB);
  const head = JSON.parse(line.toString('utf8', 0, tab < 0 ? line.length : tab)) as Head;
  if (typeof head.d === 'string') return { del: head.d };
  const { p, h, s, q, e, k } = head;
  if (tab < 0 || typeof p !== 'string' || typeof h !== 'string' || !Array.isArray(s) || !Array.isArray(q) || !Array.isArray(e) || !Array.isArray(k)) {
    throw new Error('not a chunk log line');
  }
  if (q.length !== s.length || e.length !== s.length || k.length !== s.length) throw new Error('chunk log line lengths differ');
  return { put: p, hash: h, slots: s, scales: q, errors: e, crcs: k, rows: line.subarray(tab + 1) };
}

/** Lines decoded between two turns of the event loop. */
const LINES_PER_TURN = 1_000;

/**
 * Applies each line of a chunk log in order, line by line straight from the bytes (a newline byte
 * never sits inside a UTF-8 character), in slices between which the event loop runs: the whole
 * text of a large index is tens of MB. A line that does not decode goes to `damaged`, which throws.
 */
export async function readChunkLog(bytes: Buffer, apply: (line: DecodedLine) => void, damaged: (cause: unknown) => never): Promise<void> {
  let decoded = 0;
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(10, start);
    const end = newline < 0 ? bytes.length : newline;
    const line = bytes.subarray(start, end);
    start = end + 1;
    if (line.length === 0) continue;
    if (++decoded % LINES_PER_TURN === 0) await nextTurn();
    let note: DecodedLine;
    try {
      note = decodeNote(line);
    } catch (error) {
      damaged(error);
    }
    apply(note);
  }
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
