import { createMemory, instantiateInt8Scan, type ScanFn } from './int8Kernel';

const PAGE = 65536;

/**
 * The flat store's int8 vectors in wasm memory, where the SIMD kernel scans them in place: the
 * query at offset 0, the slots from `base` (page-aligned past the query), `dimPad` bytes each, and
 * the kernel's int32 scores after the last reserved slot. Views are made per call because growing
 * the memory detaches every earlier view of its buffer.
 */
export class Int8Slots {
  private readonly memory = createMemory(1);
  private readonly kernel: ScanFn = instantiateInt8Scan(this.memory);
  private pad = 0;
  private base = 0;

  /** Bytes per slot: the dimension rounded up to the kernel's 16-byte lanes. */
  get dimPad(): number {
    return this.pad;
  }

  layout(dimPad: number): void {
    this.pad = dimPad;
    this.base = Math.ceil(dimPad / 4096) * 4096;
  }

  /** Grows the memory so `capacity` slots and their scores fit (it never shrinks). */
  ensureCapacity(capacity: number): void {
    const need = this.outOffset(capacity) + capacity * 4;
    const pages = Math.ceil(need / PAGE);
    const have = this.memory.buffer.byteLength / PAGE;
    if (pages > have) this.memory.grow(pages - have);
  }

  /** The bytes of slots [from, to). */
  bytes(from: number, to: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, this.base + from * this.dimPad, (to - from) * this.dimPad);
  }

  /** One slot's int8 vector, to quantize into. */
  slot(slot: number): Int8Array {
    return new Int8Array(this.memory.buffer, this.base + slot * this.dimPad, this.dimPad);
  }

  /** Where the query is quantized before `scan`. */
  query(): Int8Array {
    return new Int8Array(this.memory.buffer, 0, this.dimPad);
  }

  /** The int8 dot products of the query with the first `slots` slots. */
  scan(slots: number): Int32Array {
    const outOff = this.outOffset(slots);
    this.kernel(0, this.base, slots, this.dimPad, outOff);
    return new Int32Array(this.memory.buffer, outOff, slots);
  }

  private outOffset(slots: number): number {
    return Math.ceil((this.base + slots * this.dimPad) / 16) * 16;
  }
}
