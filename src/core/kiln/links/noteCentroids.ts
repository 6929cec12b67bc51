/**
 * Related notes of a note by meaning (issue 26): each indexed note stands for the mean of its
 * chunks' vectors (its centroid), kept here, int8 in the store's SIMD kernel and float32 beside it
 * for the exact re-ranking. A note's related notes are the notes whose centroids are nearest to its
 * own: one int8 scan of one vector per note, not an embedding of the note's text and a search of
 * every chunk. The centroids follow the index: each call compares the index's notes (their content
 * hashes) with those they were computed from, only when the index changed since, and reads again
 * only the notes that changed.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { exactTopK } from '../../index/store/flatSearch';
import { Int8Slots } from '../../index/store/int8Slots';
import { dot, normalized, quantizeInto } from '../../index/store/quantize';
import type { ChunkRecord } from '../../index/store/vectorStore';

/** One note's chunks and their vectors, `vectors[i]` being `chunks[i]`'s. */
export interface NoteVectors {
  chunks: ChunkRecord[];
  vectors: Float32Array[];
}

/** What the centroids are read from: the index (KilnIndex), where its store can hand out vectors. */
export interface NoteVectorSource {
  /** Runs and clears started and ended (`mutations`), and runs writing now (`writing`): equal and 0, nothing changed. */
  noteChanges(): { mutations: number; writing: number };
  /** Every indexed note's content hash. */
  noteHashes(): Promise<Map<string, string>>;
  /** A note's chunks with their vectors; undefined where the store cannot hand them out. */
  noteVectors(path: string): Promise<NoteVectors | undefined>;
}

/** A note near another, with its section nearest to that note. */
export interface NearNote {
  path: string;
  /** Cosine of the two centroids, in 0–1. */
  score: number;
  /** Its chunk nearest to the other note's centroid. */
  chunk: ChunkRecord;
}

/** The longest one call holds the thread while it reads centroids (the editor's 20 ms budget, with room). */
const SLICE_MS = 8;

export class NoteCentroids {
  private dim = 0;
  private dimPad = 0;
  private slots = 0;
  private readonly slotOf = new Map<string, number>();
  private paths: string[] = [];
  private readonly free: number[] = [];
  private f32 = new Float32Array(0);
  private scale = new Float32Array(0);
  private err = new Float32Array(0);
  private alive = new Uint8Array(0);
  private maxErr = 0;
  private readonly q8 = new Int8Slots();
  /** The content hash each note's centroid was computed from (notes without chunks too: none). */
  private readonly hashOf = new Map<string, string>();
  private seen: number | undefined;
  private syncing: Promise<void> | undefined;

  constructor(private readonly source: NoteVectorSource) {}

  /** Notes with a centroid. */
  get size(): number {
    return this.slotOf.size;
  }

  /** Bytes held for the centroids (float32 and int8). */
  get bytes(): number {
    return this.f32.byteLength + this.alive.length * (this.dimPad + 9);
  }

  /** Brings the centroids up to date with the index: notes added, changed or gone since the last call. */
  sync(): Promise<void> {
    const changes = this.source.noteChanges();
    if (changes.writing === 0 && changes.mutations === this.seen) return Promise.resolve();
    this.syncing ??= this.load(changes).finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  /** The notes nearest in meaning to the indexed note `path` (itself left out), best first; undefined when it has no centroid. */
  async nearest(path: string, limit: number, signal?: AbortSignal): Promise<NearNote[] | undefined> {
    await this.sync();
    signal?.throwIfAborted();
    const own = this.slotOf.get(path);
    if (own === undefined) return undefined;
    const query = this.f32.slice(own * this.dim, (own + 1) * this.dim);
    const q = quantizeInto(query, this.q8.query());
    const raw = this.q8.scan(this.slots);
    const top = exactTopK(
      {
        raw, scale: this.scale, err: this.err, maxErr: this.maxErr, alive: this.alive, slots: this.slots,
        query, queryScale: q.scale, queryErr: q.error, vector: (slot) => this.vectorAt(slot), allowed: (slot) => slot !== own,
      },
      limit,
    );
    const out: NearNote[] = [];
    for (const { slot, score } of top) {
      const notePath = this.paths[slot];
      const found = await this.source.noteVectors(notePath);
      const best = found && bestChunk(found, query);
      if (best) out.push({ path: notePath, score: Math.max(0, Math.min(1, score)), chunk: best });
    }
    return out;
  }

  private async load(changes: { mutations: number; writing: number }): Promise<void> {
    const hashes = await this.source.noteHashes();
    for (const path of [...this.hashOf.keys()]) if (!hashes.has(path)) this.drop(path);
    let since = performance.now();
    for (const [path, hash] of hashes) {
      if (this.hashOf.get(path) === hash) continue;
      const found = await this.source.noteVectors(path);
      if (!found) return; // The store hands out no vectors: nothing to keep.
      this.drop(path);
      if (found.vectors.length > 0) this.put(path, centroidOf(found.vectors));
      this.hashOf.set(path, hash);
      if (performance.now() - since > SLICE_MS) {
        await nextTurn();
        since = performance.now();
      }
    }
    // A run writing meanwhile may change more: the next call looks again.
    this.seen = changes.writing === 0 ? changes.mutations : undefined;
  }

  private put(path: string, vector: Float32Array): void {
    if (vector.length !== this.dim) this.reset(vector.length);
    const slot = this.free.pop() ?? this.slots++;
    this.reserve(this.slots);
    this.f32.set(vector, slot * this.dim);
    const q = quantizeInto(vector, this.q8.slot(slot));
    this.scale[slot] = q.scale;
    this.err[slot] = q.error;
    if (q.error > this.maxErr) this.maxErr = q.error;
    this.alive[slot] = 1;
    this.paths[slot] = path;
    this.slotOf.set(path, slot);
  }

  private drop(path: string): void {
    this.hashOf.delete(path);
    const slot = this.slotOf.get(path);
    if (slot === undefined) return;
    this.slotOf.delete(path);
    this.alive[slot] = 0;
    this.free.push(slot);
  }

  /** Another dimension (another model): every centroid so far is of no use. */
  private reset(dim: number): void {
    for (const path of [...this.slotOf.keys()]) this.drop(path);
    this.hashOf.clear();
    this.free.length = 0;
    this.slots = 0;
    this.maxErr = 0;
    this.dim = dim;
    this.dimPad = Math.ceil(dim / 16) * 16;
    this.q8.layout(this.dimPad);
    this.f32 = new Float32Array(0);
    this.alive = new Uint8Array(0);
  }

  private reserve(slots: number): void {
    if (slots <= this.alive.length) return;
    const capacity = Math.max(slots, Math.ceil(this.alive.length * 1.5), 256);
    const grow = <T extends Float32Array | Uint8Array>(old: T, make: (n: number) => T, per = 1): T => {
      const next = make(capacity * per);
      next.set(old);
      return next;
    };
    this.f32 = grow(this.f32, (n) => new Float32Array(n), this.dim);
    this.scale = grow(this.scale, (n) => new Float32Array(n));
    this.err = grow(this.err, (n) => new Float32Array(n));
    this.alive = grow(this.alive, (n) => new Uint8Array(n));
    this.q8.ensureCapacity(capacity);
  }

  private vectorAt(slot: number): Float32Array {
    return this.f32.subarray(slot * this.dim, (slot + 1) * this.dim);
  }
}

/** The unit mean of a note's chunk vectors (each unit already): the direction of the whole note. */
export function centroidOf(vectors: readonly Float32Array[]): Float32Array {
  const sum = new Float32Array(vectors[0].length);
  for (const v of vectors) for (let i = 0; i < sum.length; i++) sum[i] += v[i];
  return normalized(sum);
}

function bestChunk(found: NoteVectors, query: Float32Array): ChunkRecord | undefined {
  let best: ChunkRecord | undefined;
  let bestScore = -Infinity;
  found.vectors.forEach((v, i) => {
    const score = dot(query, v);
    if (score > bestScore && found.chunks[i]) [best, bestScore] = [found.chunks[i], score];
  });
  return best;
}

/** One NoteCentroids per index, shared by every tool context made for it (the editor makes one per call). */
const byIndex = new WeakMap<NoteVectorSource, NoteCentroids>();

export function centroidsOf(source: NoteVectorSource): NoteCentroids {
  let centroids = byIndex.get(source);
  if (!centroids) byIndex.set(source, (centroids = new NoteCentroids(source)));
  return centroids;
}
