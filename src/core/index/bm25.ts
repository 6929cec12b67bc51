import { TopK } from './store/quantize.js';
import type { ChunkRecord } from './store/vectorStore.js';

const TOKEN = /[\p{L}\p{N}]+/gu;

/** Lower-cased words and numbers (any script); the same split for chunks and queries. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

export interface Bm25BuildOptions {
  /** Longest stretch of work between two returns to the event loop (default 8 ms). */
  sliceMs?: number;
  /** Also return to the event loop after this many steps (one per chunk in each of the two passes; tests count these, not a clock). */
  sliceChunks?: number;
  signal?: AbortSignal;
  k1?: number;
  b?: number;
}

/** A note's chunks changed or left since the last build: past this share of the docs, rebuild. */
const REBUILD_SHARE = 0.2;

/**
 * Okapi BM25 over chunk texts (with their title and heading path, which often carry the words a
 * query uses). The bulk is built once into flat postings (term → doc ids and term counts in typed
 * arrays: 100k chunks would otherwise cost hundreds of MB of small arrays); notes re-indexed later
 * are dropped (tombstoned) and added to a small second index, so one saved note never rebuilds it
 * all. Document frequencies then count tombstoned docs too, which only nudges scores until the next
 * rebuild (`stale`).
 */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private offsets = new Uint32Array(1);
  private postDocs = new Uint32Array(0);
  private postTfs = new Uint16Array(0);
  private readonly added = new Map<number, { docs: number[]; tfs: number[] }>();
  private readonly docs: ChunkRecord[] = [];
  private lengths = new Float32Array(64);
  private dead = new Uint8Array(64);
  private readonly byNote = new Map<string, number[]>();
  private totalLength = 0;
  private live = 0;
  private changed = 0;

  constructor(
    chunks: Iterable<ChunkRecord> = [],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    for (const _ of this.buildSteps(chunks));
  }

  /**
   * The same build in slices: it hands the event loop back (setImmediate) every `sliceMs`
   * milliseconds or `sliceChunks` chunks, whichever comes first, so 100k chunks (seconds of work)
   * never freeze the extension host. Chunks are read from the iterable as the build goes.
   */
  static async build(chunks: Iterable<ChunkRecord>, options: Bm25BuildOptions = {}): Promise<Bm25Index> {
    const index = new Bm25Index([], options.k1, options.b);
    const sliceMs = options.sliceMs ?? 8;
    const sliceChunks = options.sliceChunks ?? Infinity;
    let sliceStart = performance.now();
    let inSlice = 0;
    for (const _ of index.buildSteps(chunks)) {
      // Every step is one chunk; the clock is read only every 64 of them.
      if (++inSlice < sliceChunks && (inSlice & 63 || performance.now() - sliceStart < sliceMs)) continue;
      await new Promise<void>((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
      sliceStart = performance.now();
      inSlice = 0;
    }
    return index;
  }

  /** Pass 1: term ids per doc and document frequencies; pass 2: postings laid out by term. Yields once per chunk and pass. */
  private *buildSteps(chunks: Iterable<ChunkRecord>): Generator<void> {
    const docTerms: Uint32Array[] = [];
    const df: number[] = [];
    for (const chunk of chunks) {
      const ids = this.termIdsOf(chunk);
      docTerms.push(ids);
      this.register(chunk, ids.length);
      let previous = -1;
      for (const id of ids) {
        if (id !== previous) df[id] = (df[id] ?? 0) + 1;
        previous = id;
      }
      yield;
    }
    this.offsets = new Uint32Array(this.termIds.size + 1);
    for (let t = 0; t < df.length; t++) this.offsets[t + 1] = this.offsets[t] + (df[t] ?? 0);
    const fill = this.offsets.slice(0, -1);
    this.postDocs = new Uint32Array(this.offsets[this.offsets.length - 1]);
    this.postTfs = new Uint16Array(this.postDocs.length);
    for (let doc = 0; doc < docTerms.length; doc++) {
      const ids = docTerms[doc];
      for (let i = 0; i < ids.length; ) {
        let j = i;
        while (j < ids.length && ids[j] === ids[i]) j++;
        const at = fill[ids[i]]++;
        this.postDocs[at] = doc;
        this.postTfs[at] = Math.min(j - i, 0xffff);
        i = j;
      }
      yield;
    }
  }

  get size(): number {
    return this.live;
  }

  /** True when enough has changed since the build that a fresh build is worth it. */
  get stale(): boolean {
    return this.changed > Math.max(50, this.docs.length * REBUILD_SHARE);
  }

  /** The note's chunks leave the index (their docs are tombstoned). */
  removeNote(notePath: string): void {
    for (const doc of this.byNote.get(notePath) ?? []) {
      if (this.dead[doc]) continue;
      this.dead[doc] = 1;
      this.totalLength -= this.lengths[doc];
      this.live--;
      this.changed++;
    }
    this.byNote.delete(notePath);
  }

  /** Adds one chunk after the build (a re-indexed note): it goes to the small second index. */
  add(chunk: ChunkRecord): void {
    const ids = this.termIdsOf(chunk);
    const doc = this.register(chunk, ids.length);
    this.changed++;
    for (let i = 0; i < ids.length; ) {
      let j = i;
      while (j < ids.length && ids[j] === ids[i]) j++;
      let posting = this.added.get(ids[i]);
      if (!posting) this.added.set(ids[i], (posting = { docs: [], tfs: [] }));
      posting.docs.push(doc);
      posting.tfs.push(j - i);
      i = j;
    }
  }

  /** Best `k` chunks for the query's words, best first; chunks sharing no word are not returned. */
  search(query: string, k: number, filter?: (chunk: ChunkRecord) => boolean): { chunk: ChunkRecord; score: number }[] {
    const n = this.docs.length;
    const scores = new Float64Array(n);
    const touched: number[] = [];
    const avg = this.live > 0 ? this.totalLength / this.live : 1;
    const score = (doc: number, tf: number, idf: number) => {
      if (this.dead[doc]) return;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] += (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / (avg || 1)));
    };
    for (const term of new Set(tokenize(query))) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const start = id + 1 < this.offsets.length ? this.offsets[id] : 0;
      const end = id + 1 < this.offsets.length ? this.offsets[id + 1] : 0;
      const extra = this.added.get(id);
      const df = end - start + (extra?.docs.length ?? 0);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let p = start; p < end; p++) score(this.postDocs[p], this.postTfs[p], idf);
      extra?.docs.forEach((doc, i) => score(doc, extra.tfs[i], idf));
    }
    const top = new TopK(Math.max(0, k));
    for (const doc of touched) if (!filter || filter(this.docs[doc])) top.push(scores[doc], doc);
    return top.sorted().map(({ score: s, slot }) => ({ chunk: this.docs[slot], score: s }));
  }

  /** Term ids of the chunk's words, sorted (equal ids adjacent, so counting is a run length). */
  private termIdsOf(chunk: ChunkRecord): Uint32Array {
    const tokens = tokenize(`${chunk.title} ${chunk.headingPath.join(' ')} ${chunk.text}`);
    const ids = new Uint32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) {
      let id = this.termIds.get(tokens[i]);
      if (id === undefined) {
        id = this.termIds.size;
        this.termIds.set(tokens[i], id);
      }
      ids[i] = id;
    }
    return ids.sort();
  }

  private register(chunk: ChunkRecord, length: number): number {
    const doc = this.docs.length;
    this.docs.push(chunk);
    if (doc >= this.lengths.length) {
      const grown = new Float32Array(doc * 2);
      grown.set(this.lengths);
      this.lengths = grown;
      const dead = new Uint8Array(grown.length);
      dead.set(this.dead);
      this.dead = dead;
    }
    this.lengths[doc] = length;
    this.totalLength += length;
    this.live++;
    const list = this.byNote.get(chunk.notePath);
    if (list) list.push(doc);
    else this.byNote.set(chunk.notePath, [doc]);
    return doc;
  }
}
