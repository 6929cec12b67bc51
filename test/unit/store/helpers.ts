import type { ChunkRecord } from '../../../src/core/index/store/vectorStore';

/** Deterministic pseudo-random unit vectors (mulberry32), so failures reproduce. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomVector(dim: number, next: () => number): Float32Array {
  const v = new Float32Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) {
    // Sum of uniforms ≈ gaussian: directions spread evenly on the sphere.
    v[i] = next() + next() + next() - 1.5;
    n += v[i] * v[i];
  }
  n = Math.sqrt(n);
  for (let i = 0; i < dim; i++) v[i] /= n;
  return v;
}

export function chunksFor(notePath: string, n: number, hash: string): ChunkRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${notePath}#${i}`,
    notePath,
    title: `Title ${notePath}`,
    headingPath: ['Top', `Section ${i}`],
    startLine: i * 10 + 1,
    endLine: i * 10 + 9,
    text: `text of ${notePath} chunk ${i} — ünïcode`,
    contentHash: hash,
  }));
}

/** The reference: exact cosine over float32 unit vectors, as the stores promise to rank. */
export function exactTopK(query: Float32Array, items: { id: string; vector: Float32Array }[], k: number): string[] {
  const q = unit(query);
  return items
    .map(({ id, vector }) => {
      const v = unit(vector);
      let s = 0;
      for (let i = 0; i < q.length; i++) s += q[i] * v[i];
      return { id, s };
    })
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map((x) => x.id);
}

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return v.map((x) => x / n);
}
