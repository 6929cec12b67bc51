import { encodeNote, type NoteLine } from './flatMeta';
import type { FlatNotes } from './flatNotes';
import type { Int8Slots } from './int8Slots';

/** A generation's files in memory: the live slots rewritten densely. */
export interface LiveGeneration {
  /** order[i] is the old slot now at slot i. */
  order: number[];
  q8: Uint8Array;
  f32: Uint8Array;
  meta: Buffer;
}

/**
 * What a compaction writes: every live slot, note by note in the order the notes were applied, at
 * consecutive slots — int8 rows, float32 vectors (read back through `vector`, CRC-checked) and one
 * chunk-log line per note.
 */
export function liveGeneration(notes: FlatNotes, q8Slots: Int8Slots, vector: (slot: number) => Float32Array, dim: number): LiveGeneration {
  const order: number[] = [];
  const lines: string[] = [];
  const table = notes.table;
  for (const [notePath, note] of notes.entries()) {
    const line: NoteLine = { put: notePath, hash: note.hash, chunks: [] };
    for (const slot of note.slots) {
      line.chunks.push({ chunk: notes.chunkAt(slot), slot: order.length, scale: table.scale[slot], error: table.err[slot], crc: table.crc[slot] });
      order.push(slot);
    }
    lines.push(encodeNote(line));
  }
  const dimPad = q8Slots.dimPad;
  const q8 = new Uint8Array(order.length * dimPad);
  const f32 = new Float32Array(order.length * dim);
  order.forEach((slot, i) => {
    q8.set(q8Slots.bytes(slot, slot + 1), i * dimPad);
    f32.set(vector(slot), i * dim);
  });
  const meta = Buffer.from(lines.length ? lines.join('\n') + '\n' : '', 'utf8');
  return { order, q8, f32: new Uint8Array(f32.buffer), meta };
}
