/**
 * The int8 dot-product scan as a WebAssembly SIMD module, encoded here byte by byte so the build
 * needs no wasm toolchain. One call scores every slot: out[i] = sum_j q[j] * v_i[j] (int32), with
 * i8 lanes widened to i16 and multiplied-added by i32x4.dot_i16x8_s, 16 bytes per step. Rows go
 * four at a time, so each 16 bytes of the query are loaded and widened once for four slots (the
 * widening, not memory, was the kernel's cost); the last n % 4 rows one at a time.
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

// Locals: 0 q, 1 base, 2 n, 3 dimPad, 4 out (params); 5 i, 6 j, 7 p, 8-10 p1-p3 (the next three
// rows) (i32); 11 acc, 12 qv, 13 vv, 14 qlo, 15 qhi, 16-19 a0-a3 (one sum per row of four) (v128).
const Q = 0, N = 2, DIM = 3, OUT = 4, I = 5, J = 6, P = 7;
const ACC = 11, QV = 12, VV = 13, QLO = 14, QHI = 15, A0 = 16;
const get = (l: number) => [0x20, l];
const set = (l: number) => [0x21, l];
const simd = (op: number) => [0xfd, ...uleb(op)];
const load = [...simd(0x00), 0x00, 0x00];
const zero = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const EXT_LO = 0x87; // i16x8.extend_low_i8x16_s
const EXT_HI = 0x88; // i16x8.extend_high_i8x16_s
const DOT = simd(0xba); // i32x4.dot_i16x8_s
const ADD4 = simd(0xae); // i32x4.add
const ADD = 0x6a; // i32.add
const lane = (acc: number, n: number) => [...get(acc), ...simd(0x1b), n];
/** The four lanes of `acc` summed, as one i32 on the stack. */
const hsum = (acc: number) => [...lane(acc, 0), ...lane(acc, 1), ADD, ...lane(acc, 2), ADD, ...lane(acc, 3), ADD];
/** out[i + r] = hsum(acc) */
const storeScore = (acc: number, r: number) => [...get(OUT), ...get(I), 0x41, 2, 0x74, ADD, ...hsum(acc), 0x36, 2, ...uleb(4 * r)];
/** acc += q̂·v̂ over the 16 bytes at row + j, the query's halves already widened in qlo/qhi. */
const rowStep = (row: number, acc: number) => [
  ...get(acc), ...get(row), ...get(J), ADD, ...load, ...set(VV),
  ...get(QLO), ...get(VV), ...simd(EXT_LO), ...DOT, ...ADD4,
  ...get(QHI), ...get(VV), ...simd(EXT_HI), ...DOT, ...ADD4, ...set(acc),
];
/** j += 16; continue the enclosing loop while j < dimPad */
const nextStep = [...get(J), 0x41, 16, ADD, 0x22, J, ...get(DIM), 0x49, 0x0d, 0];

function fourRows(): number[] {
  const rows = [P, P + 1, P + 2, P + 3];
  const accs = [A0, A0 + 1, A0 + 2, A0 + 3];
  return [
    0x02, 0x40, // block
    0x03, 0x40, // loop over rows, four at a time
    ...get(I), 0x41, 4, ADD, ...get(N), 0x4b, 0x0d, 1, // if i + 4 > n: break
    ...[1, 2, 3].flatMap((r) => [...get(rows[r - 1]), ...get(DIM), ADD, ...set(rows[r])]),
    ...accs.flatMap((a) => [...zero, ...set(a)]),
    0x41, 0, ...set(J),
    0x03, 0x40, // loop over the 16-byte steps
    ...get(Q), ...get(J), ADD, ...load, ...set(QV),
    ...get(QV), ...simd(EXT_LO), ...set(QLO),
    ...get(QV), ...simd(EXT_HI), ...set(QHI),
    ...rows.flatMap((row, r) => rowStep(row, accs[r])),
    ...nextStep,
    0x0b,
    ...accs.flatMap((a, r) => storeScore(a, r)),
    ...get(rows[3]), ...get(DIM), ADD, ...set(P),
    ...get(I), 0x41, 4, ADD, ...set(I),
    0x0c, 0, // br rows
    0x0b,
    0x0b,
  ];
}

function oneRow(): number[] {
  return [
    0x02, 0x40, // block
    0x03, 0x40, // loop over the remaining rows
    ...get(I), ...get(N), 0x4f, 0x0d, 1, // if i >= n: break
    ...zero, ...set(ACC),
    0x41, 0, ...set(J),
    0x03, 0x40, // loop over the 16-byte steps
    ...get(Q), ...get(J), ADD, ...load, ...set(QV),
    ...get(QV), ...simd(EXT_LO), ...set(QLO),
    ...get(QV), ...simd(EXT_HI), ...set(QHI),
    ...rowStep(P, ACC),
    ...nextStep,
    0x0b,
    ...storeScore(ACC, 0),
    ...get(P), ...get(DIM), ADD, ...set(P),
    ...get(I), 0x41, 1, ADD, ...set(I),
    0x0c, 0, // br remaining
    0x0b,
    0x0b,
  ];
}

function scanBody(): number[] {
  const code = [...get(1), ...set(P), ...fourRows(), ...oneRow(), 0x0b];
  const locals = [2, 6, I32, 9, V128];
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
  validate(bytes: Uint8Array): boolean;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export function createMemory(pages: number): WasmMemory {
  return new wasm.Memory({ initial: pages });
}

let simdValidates: boolean | undefined;

/** Whether this runtime compiles WebAssembly SIMD (Node 16.4+ does; a runtime built without it may not). */
export function wasmSimdSupported(): boolean {
  simdValidates ??= wasm.validate(int8ScanWasm());
  return simdValidates;
}

/**
 * The same scan in plain JavaScript over the same memory layout: the fallback where the SIMD module
 * does not validate, and the reference its tests compare against. Exact: every sum fits an int32.
 */
export function scalarInt8Scan(memory: WasmMemory): ScanFn {
  return (q, base, n, dimPad, out) => {
    const bytes = new Int8Array(memory.buffer);
    const scores = new Int32Array(memory.buffer, out, n);
    for (let i = 0, p = base; i < n; i++, p += dimPad) {
      let s = 0;
      for (let j = 0; j < dimPad; j++) s += bytes[q + j] * bytes[p + j];
      scores[i] = s;
    }
  };
}

/**
 * The kernel over `memory` (synchronous: the module is a few hundred bytes): the SIMD one where the
 * runtime has WebAssembly SIMD, else the scalar one; `simd: false` asks for the scalar one.
 */
export function instantiateInt8Scan(memory: WasmMemory, options: { simd?: boolean } = {}): ScanFn {
  if (options.simd === false || !wasmSimdSupported()) return scalarInt8Scan(memory);
  const module = new wasm.Module(int8ScanWasm());
  const instance = new wasm.Instance(module, { env: { mem: memory } });
  return instance.exports.scan as ScanFn;
}
