import type { ChunkRecord } from './vectorStore';

/**
 * What the flat store knows of each slot, in parallel arrays indexed by slot, so the hot search
 * loops read typed arrays rather than chunk objects: the int8 scale, the quantization error, the
 * float32 vector's CRC, whether the slot is live, and the note (and chunk) it belongs to.
 */
export class SlotTable {
  scale = new Float32Array(0);
  err = new Float32Array(0);
  crc = new Uint32Array(0);
  /** 1 for a live slot. */
  alive = new Uint8Array(0);
  /** Largest quantization error of any slot: a cheap first bound for the exactness pass. */
  maxErr = 0;
  /** Built on first use from the note's rows: most chunks of a large index are never shown. */
  chunk: (ChunkRecord | undefined)[] = [];
  note: string[] = [];

  get capacity(): number {
    return this.scale.length;
  }

  /** Room for at least `slots`; grows by half at least, so appends stay amortized. */
  reserve(slots: number): void {
    if (slots <= this.scale.length) return;
    const cap = Math.max(slots, Math.ceil(this.scale.length * 1.5), 1024);
    const scale = new Float32Array(cap);
    scale.set(this.scale);
    const err = new Float32Array(cap);
    err.set(this.err);
    const crc = new Uint32Array(cap);
    crc.set(this.crc);
    const alive = new Uint8Array(cap);
    alive.set(this.alive);
    Object.assign(this, { scale, err, crc, alive });
  }

  /** Marks `slot` live for `notePath`. */
  fill(slot: number, notePath: string, scale: number, error: number, crc: number): void {
    this.scale[slot] = scale;
    this.err[slot] = error;
    if (error > this.maxErr) this.maxErr = error;
    this.crc[slot] = crc;
    this.alive[slot] = 1;
    this.note[slot] = notePath;
  }

  /**
   * Marks the slots from `start` on live for `notePath`, one per value: what fill does slot by slot,
   * in bulk copies (opening an index fills every slot; one by one it was most of the open).
   */
  fillRun(start: number, notePath: string, scales: readonly number[], errors: readonly number[], crcs: readonly number[]): void {
    const end = start + scales.length;
    this.scale.set(scales, start);
    this.err.set(errors, start);
    this.crc.set(crcs, start);
    this.alive.fill(1, start, end);
    if (this.note.length < end) this.note.length = end;
    this.note.fill(notePath, start, end);
    for (const error of errors) if (error > this.maxErr) this.maxErr = error;
  }

  /** Marks `slot` dead; false when it was already. */
  free(slot: number): boolean {
    if (!this.alive[slot]) return false;
    this.alive[slot] = 0;
    this.chunk[slot] = undefined;
    return true;
  }

  /** Keeps only the slots in `order`, the i-th moved to slot i (the capacity stays). */
  keep(order: readonly number[]): void {
    const cap = this.scale.length;
    const scale = new Float32Array(cap);
    const err = new Float32Array(cap);
    const crc = new Uint32Array(cap);
    const alive = new Uint8Array(cap);
    const chunk: (ChunkRecord | undefined)[] = [];
    const note: string[] = [];
    order.forEach((slot, i) => {
      scale[i] = this.scale[slot];
      err[i] = this.err[slot];
      crc[i] = this.crc[slot];
      alive[i] = 1;
      chunk[i] = this.chunk[slot];
      note[i] = this.note[slot];
    });
    Object.assign(this, { scale, err, crc, alive, chunk, note });
  }

  /** No slot live (the arrays keep their capacity). */
  clear(): void {
    this.alive.fill(0);
    this.chunk = [];
    this.note = [];
  }
}
