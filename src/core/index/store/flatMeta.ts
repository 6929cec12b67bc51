import type { ChunkRecord } from './vectorStore.js';

/** One line of the flat store's chunk log: a note put (all its chunks) or removed. */
export type NoteLine =
  | { put: string; hash: string; chunks: { chunk: ChunkRecord; slot: number; scale: number; error: number; crc: number }[] }
  | { del: string };

// Short keys keep the sidecar compact: it is replayed in full on every open.
interface Wire {
  p?: string;
  d?: string;
  h?: string;
  c?: [id: string, title: string, heading: string[], start: number, end: number, text: string, slot: number, scale: number, error: number, crc: number][];
}

export function encodeNote(line: NoteLine): string {
  if ('del' in line) return JSON.stringify({ d: line.del } satisfies Wire);
  const c = line.chunks.map(({ chunk, slot, scale, error, crc }) => [chunk.id, chunk.title, chunk.headingPath, chunk.startLine, chunk.endLine, chunk.text, slot, scale, error, crc] as const);
  return JSON.stringify({ p: line.put, h: line.hash, c });
}

export function decodeNote(text: string): NoteLine {
  const w = JSON.parse(text) as Wire;
  if (typeof w.d === 'string') return { del: w.d };
  if (typeof w.p !== 'string' || typeof w.h !== 'string' || !Array.isArray(w.c)) throw new Error('not a chunk log line');
  const notePath = w.p;
  const hash = w.h;
  return {
    put: notePath,
    hash,
    chunks: w.c.map(([id, title, headingPath, startLine, endLine, text, slot, scale, error, crc]) => ({
      chunk: { id, notePath, title, headingPath, startLine, endLine, text, contentHash: hash },
      slot,
      scale,
      error,
      crc,
    })),
  };
}
