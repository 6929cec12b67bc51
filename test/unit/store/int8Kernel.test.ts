import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemory, instantiateInt8Scan, scalarInt8Scan, wasmSimdSupported } from '../../../src/core/index/store/int8Kernel';
import { rng } from './helpers';

/** Slots of `dim` random int8 values (edge values among them) zero-padded to 16 bytes, and a query. */
function fill(bytes: Int8Array, dim: number, dimPad: number, rows: number, next: () => number, edge: (i: number) => number | undefined) {
  for (let r = 0; r <= rows; r++) {
    for (let j = 0; j < dimPad; j++) bytes[r * dimPad + j] = j < dim ? edge(r * dimPad + j) ?? Math.floor(next() * 256) - 128 : 0;
  }
}

function reference(bytes: Int8Array, dimPad: number, rows: number): number[] {
  const out: number[] = [];
  for (let v = 1; v <= rows; v++) {
    let s = 0;
    for (let j = 0; j < dimPad; j++) s += bytes[j] * bytes[v * dimPad + j];
    out.push(s);
  }
  return out;
}

test('this Node runs the SIMD kernel (the scalar one is only a fallback)', () => {
  assert.equal(wasmSimdSupported(), true);
});

test('the SIMD kernel and the scalar fallback give exactly the reference scores: odd dims, edge values, row counts not a multiple of four', () => {
  const next = rng(31);
  for (const dim of [1, 15, 17, 255, 256, 384, 401]) {
    const dimPad = Math.ceil(dim / 16) * 16;
    for (const rows of [0, 1, 2, 3, 4, 5, 7, 9, 130]) {
      const memory = createMemory(Math.ceil((dimPad * (rows + 1) + 4 * rows + 16) / 65536));
      const bytes = new Int8Array(memory.buffer);
      // Rows alternate random, all -128 (the query's first bytes too: the largest products), all 127.
      fill(bytes, dim, dimPad, rows, next, (i) => {
        const r = Math.floor(i / dimPad);
        if (r === 0) return i % 3 === 0 ? -128 : undefined;
        return r % 3 === 1 ? -128 : r % 3 === 2 ? 127 : undefined;
      });
      const want = reference(bytes, dimPad, rows);
      const out = Math.ceil((dimPad * (rows + 1)) / 16) * 16;
      for (const [kind, scan] of [['simd', instantiateInt8Scan(memory)], ['scalar', scalarInt8Scan(memory)], ['asked scalar', instantiateInt8Scan(memory, { simd: false })]] as const) {
        new Int32Array(memory.buffer, out, rows).fill(12345);
        scan(0, dimPad, rows, dimPad, out);
        assert.deepEqual([...new Int32Array(memory.buffer, out, rows)], want, `${kind}: dim ${dim}, ${rows} rows`);
      }
    }
  }
});

test('the kernel writes only the scores of the rows asked for (none past n)', () => {
  const memory = createMemory(1);
  const bytes = new Int8Array(memory.buffer);
  bytes.fill(1, 0, 16 * 8);
  const out = 16 * 8;
  new Int32Array(memory.buffer, out, 8).fill(-1);
  instantiateInt8Scan(memory)(0, 16, 6, 16, out);
  assert.deepEqual([...new Int32Array(memory.buffer, out, 8)], [16, 16, 16, 16, 16, 16, -1, -1]);
});
