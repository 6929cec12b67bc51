/**
 * The int8 dot-product scan as a WebAssembly SIMD module, encoded here byte by byte so the build
 * needs no wasm toolchain. One call scores every slot: out[i] = sum_j q[j] * v_i[j] (int32), with
 * i8 lanes widened to i16 and multiplied-added by i32x4.dot_i16x8_s, 16 bytes per step.
 */

const I32 = 0x7f;
const V128 = 0x7b;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(s: string): number[] {
  const bytes = [...Buffer.from(s, 'utf8')];
  return [...uleb(bytes.length), ...bytes];
}

// Locals: 0 q, 1 base, 2 n, 3 dimPad, 4 out (params); 5 i, 6 j, 7 p (i32); 8 acc, 9 qv, 10 vv (v128).
const get = (l: number) => [0x20, l];
const set = (l: number) => [0x21, l];
const simd = (op: number) => [0xfd, ...uleb(op)];
const load = [...simd(0x00), 0x00, 0x00];
const lane = (n: number) => [...get(8), ...simd(0x1b), n];

function scanBody(): number[] {
  // Each 16-byte step loads q and v once, then widens and dot-multiplies both halves.
  const halfDot = (extend: number) => [...get(9), ...simd(extend), ...get(10), ...simd(extend), ...simd(0xba), ...simd(0xae)];
  const code = [
    ...get(1), ...set(7),
    0x02, 0x40, // block
    0x03, 0x40, // loop outer
    ...get(5), ...get(2), 0x4f, 0x0d, 1, // if i >= n: break
    ...simd(0x0c), ...new Array<number>(16).fill(0), ...set(8),
    0x41, 0, ...set(6),
    0x03, 0x40, // loop inner
    ...get(0), ...get(6), 0x6a, ...load, ...set(9),
    ...get(7), ...get(6), 0x6a, ...load, ...set(10),
    ...get(8), ...halfDot(0x87), ...halfDot(0x88), ...set(8), // i16x8.extend_{low,high}_i8x16_s, i32x4.dot_i16x8_s, i32x4.add
    ...get(6), 0x41, 16, 0x6a, 0x22, 6, ...get(3), 0x49, 0x0d, 0, // j += 16; continue while j < dimPad
    0x0b,
    ...get(4), ...get(5), 0x41, 2, 0x74, 0x6a,
    ...lane(0), ...lane(1), 0x6a, ...lane(2), 0x6a, ...lane(3), 0x6a,
    0x36, 2, 0, // i32.store
    ...get(7), ...get(3), 0x6a, ...set(7),
    ...get(5), 0x41, 1, 0x6a, ...set(5),
    0x0c, 0, // br outer
    0x0b,
    0x0b,
    0x0b, // end function
  ];
  const locals = [2, 3, I32, 3, V128];
  const body = [...locals, ...code];
  return [...uleb(body.length), ...body];
}

export function int8ScanWasm(): Uint8Array {
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(2, [1, ...name('env'), ...name('mem'), 0x02, 0x00, 0x01]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('scan'), 0x00, 0]),
    ...section(10, [1, ...scanBody()]),
  ];
  return Uint8Array.from(bytes);
}

export type ScanFn = (q: number, base: number, n: number, dimPad: number, out: number) => void;

/** The little of the WebAssembly API used here (the project's type libs do not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (d: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export function createMemory(pages: number): WasmMemory {
  return new wasm.Memory({ initial: pages });
}

/** Instantiates the kernel over `memory` (synchronous: the module is a few hundred bytes). */
export function instantiateInt8Scan(memory: WasmMemory): ScanFn {
  const module = new wasm.Module(int8ScanWasm());
  const instance = new wasm.Instance(module, { env: { mem: memory } });
  return instance.exports.scan as ScanFn;
}
