import * as fs from 'node:fs';
import { crc32 } from 'node:zlib';
import { openForReading } from './flatFiles';
import { StoreCorruptError } from './vectorStore';

/**
 * The flat store's float32 vectors: staged in memory until committed, then read back from the
 * generation's vector file one slot at a time (only the top candidates are, for re-ranking, so they
 * cost no resident memory), each checked against the CRC its chunk row records.
 */
export class Float32Slots {
  private readonly staged = new Map<number, Float32Array>();
  private fd: number | undefined;
  private readonly scratch: Float32Array;

  constructor(
    private readonly dim: number,
    /** The index's folder, for messages. */
    private readonly dir: string,
  ) {
    this.scratch = new Float32Array(dim);
  }

  /** Reads committed vectors from `file` from now on. */
  open(file: string): void {
    this.fd = fs.openSync(file, 'r');
  }

  /** The same, for a file the manifest records: missing, the index is damaged. */
  openRecorded(file: string): void {
    this.fd = openForReading(file);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  stage(slot: number, vector: Float32Array): void {
    this.staged.set(slot, vector);
  }

  /** The staged vectors of slots `from` to `to` (every one of them staged), one after another, to append. */
  stagedRange(from: number, to: number): Float32Array {
    const out = new Float32Array((to - from) * this.dim);
    for (let s = from; s < to; s++) out.set(this.staged.get(s)!, (s - from) * this.dim);
    return out;
  }

  dropStaged(): void {
    this.staged.clear();
  }

  /** The slot's vector: staged, or read from the file into a scratch buffer (valid until the next read). */
  vector(slot: number, crc: number): Float32Array {
    const staged = this.staged.get(slot);
    if (staged) return staged;
    const bytes = this.dim * 4;
    const buf = new Uint8Array(this.scratch.buffer);
    if (fs.readSync(this.fd!, buf, 0, bytes, slot * bytes) !== bytes) {
      throw new StoreCorruptError(`The vector file of the index in ${this.dir} is shorter than recorded.`);
    }
    if (crc32(buf) !== crc) throw new StoreCorruptError(`A vector of the index in ${this.dir} fails its checksum.`);
    return this.scratch;
  }
}
