/** Vector helpers shared by the stores: normalization, int8 quantization with its error, exact dot. */

export function normalized(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const norm = Math.sqrt(sum);
  const out = new Float32Array(v.length);
  if (norm === 0) return out;
  for (let i = 0; i < v.length; i++) out[i] = v[i] / norm;
  return out;
}

export interface Quantized {
  /** v ≈ scale * q */
  scale: number;
  /** ||v - scale * q||: bounds how far the int8 score can be from the exact one. */
  error: number;
}

/** Writes round(v / scale) into `into` (zero-padded beyond v.length). */
export function quantizeInto(v: Float32Array, into: Int8Array): Quantized {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  const scale = max === 0 ? 1 : max / 127;
  let err = 0;
  for (let i = 0; i < into.length; i++) {
    if (i >= v.length) {
      into[i] = 0;
      continue;
    }
    const q = Math.max(-127, Math.min(127, Math.round(v[i] / scale)));
    into[i] = q;
    const d = v[i] - q * scale;
    err += d * d;
  }
  return { scale, error: Math.sqrt(err) };
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** A fixed-capacity min-heap of (score, slot): keeps the best `capacity` seen. */
export class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  size = 0;
  constructor(readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
  }
  get min(): number {
    return this.size < this.capacity ? -Infinity : this.scores[0];
  }
  push(score: number, slot: number): void {
    if (this.capacity === 0) return;
    if (this.size < this.capacity) {
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (this.scores[p] <= score) break;
        this.scores[i] = this.scores[p];
        this.slots[i] = this.slots[p];
        i = p;
      }
      this.scores[i] = score;
      this.slots[i] = slot;
      return;
    }
    if (score <= this.scores[0]) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const c = r < this.size && this.scores[r] < this.scores[l] ? r : l;
      if (this.scores[c] >= score) break;
      this.scores[i] = this.scores[c];
      this.slots[i] = this.slots[c];
      i = c;
    }
    this.scores[i] = score;
    this.slots[i] = slot;
  }
  /** Best first. */
  sorted(): { score: number; slot: number }[] {
    const out: { score: number; slot: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i], slot: this.slots[i] });
    return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }
}
