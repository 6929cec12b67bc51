import { setImmediate as nextTurn } from 'node:timers/promises';
import { TopK } from './store/quantize';
import type { ChunkRecord } from './store/vectorStore';
import { DEFAULT_FIELDS, FIELDS, noteFieldTerms } from './noteFields';
import { compactSnapshot, type NoteBm25Snapshot } from './noteBm25Snapshot';
import { searchTerms } from './tokenize';

const F = FIELDS.length;
const K1 = 1.2;
/** A query's first this many distinct words count; a pasted page does not cost a scan per word. */
const MAX_QUERY_TERMS = 256;
const MAX_QUERY_CHARS = 4000;
/** Notes changed or removed since the last build: past this share, a rebuild is worth it. */
const REBUILD_SHARE = 0.2;

export interface NoteBm25BuildOptions {
  /** Longest stretch of work between two returns to the event loop (default 8 ms). */
  sliceMs?: number;
  /** Also return to the event loop after this many steps (tests count these, not a clock). */
  sliceSteps?: number;
  signal?: AbortSignal;
}

/** The query as the index scores it: distinct known and unknown words with their idf. */
export interface LexicalQuery {
  /** The query as given (capped). */
  text: string;
  terms: { id: number | undefined; text: string; idf: number }[];
  /** Sum of every query word's idf: the score a note matching them all fully would reach. */
  norm: number;
}

/**
 * Field-weighted BM25 (BM25F) over whole notes: title and file name, heading path, opening lines and
 * body are fields with their own weight and length normalization; term frequencies are combined
 * across fields before saturation, so a word repeated in the body cannot outweigh the same word in
 * the title. `relevance` is the score divided by the score of a note that matched every query word
 * to saturation: 0–1, the share of the query (weighted by rarity) the note covers. The bulk is flat
 * postings in typed arrays (term → notes with four term counts); notes changed later are tombstoned
 * and added to a small second index, so one saved note never rebuilds it all.
 */
export class NoteBm25 {
  private readonly termIds = new Map<string, number>();
  private offsets: Uint32Array = new Uint32Array(1);
  private postDocs: Uint32Array = new Uint32Array(0);
  private postTfs: Uint16Array = new Uint16Array(0);
  private readonly added = new Map<number, { docs: number[]; tfs: number[] }>();
  private readonly docs: { path: string; chunkCount: number; chunks?: ChunkRecord[] }[] = [];
  private lengths = new Float32Array(64 * F);
  private dead = new Uint8Array(64);
  private readonly byPath = new Map<string, number>();
  private readonly totals = new Float64Array(F);
  private chunkTotal = 0;
  private chunkLengthTotal = 0;
  private live = 0;
  private changed = 0;

  constructor(
    notes: Iterable<ChunkRecord[]> = [],
    private readonly fields = DEFAULT_FIELDS,
  ) {
    for (const _ of this.buildSteps(notes));
  }

  /** The same build in slices, handing the event loop back every `sliceMs` (100k chunks take seconds). */
  static async build(notes: Iterable<ChunkRecord[]>, options: NoteBm25BuildOptions = {}, fields = DEFAULT_FIELDS): Promise<NoteBm25> {
    const index = new NoteBm25([], fields);
    const sliceMs = options.sliceMs ?? 8;
    const sliceSteps = options.sliceSteps ?? Infinity;
    let sliceStart = performance.now();
    let inSlice = 0;
    for (const _ of index.buildSteps(notes)) {
      if (++inSlice < sliceSteps && (inSlice & 15 || performance.now() - sliceStart < sliceMs)) continue;
      await nextTurn();
      options.signal?.throwIfAborted();
      sliceStart = performance.now();
      inSlice = 0;
    }
    return index;
  }

  /** Groups chunks by note (the store yields them in any order), each note's in line order. */
  static notesOf(chunks: Iterable<ChunkRecord>): ChunkRecord[][] {
    const byNote = new Map<string, ChunkRecord[]>();
    for (const chunk of chunks) {
      const list = byNote.get(chunk.notePath);
      if (list) list.push(chunk);
      else byNote.set(chunk.notePath, [chunk]);
    }
    return [...byNote.values()].map((list) => list.sort((a, b) => a.startLine - b.startLine));
  }

  get size(): number {
    return this.live;
  }

  /** True when enough has changed since the build that a fresh build is worth it. */
  get stale(): boolean {
    return this.changed > Math.max(50, this.docs.length * REBUILD_SHARE);
  }

  has(notePath: string): boolean {
    return this.byPath.has(notePath);
  }

  /** The note's chunks in line order when this index was built from them (not when loaded from disk). */
  chunksOf(notePath: string): ChunkRecord[] | undefined {
    const doc = this.byPath.get(notePath);
    return doc === undefined ? undefined : this.docs[doc].chunks;
  }

  /** Paths of the notes in the index. */
  paths(): IterableIterator<string> {
    return this.byPath.keys();
  }

  removeNote(notePath: string): void {
    const doc = this.byPath.get(notePath);
    if (doc === undefined) return;
    this.dead[doc] = 1;
    for (let f = 0; f < F; f++) this.totals[f] -= this.lengths[doc * F + f];
    this.chunkTotal -= this.docs[doc].chunkCount;
    this.chunkLengthTotal -= this.lengths[doc * F + 3];
    this.live--;
    this.changed++;
    this.byPath.delete(notePath);
  }

  /** Adds (or replaces) one note after the build: it goes to the small second index. */
  addNote(chunks: ChunkRecord[]): void {
    if (chunks.length === 0) return;
    this.removeNote(chunks[0].notePath);
    const terms = this.termsOf(chunks);
    const doc = this.register(chunks, terms.lengths);
    this.changed++;
    for (const [id, tfs] of terms.counts) {
      let posting = this.added.get(id);
      if (!posting) this.added.set(id, (posting = { docs: [], tfs: [] }));
      posting.docs.push(doc);
      for (let f = 0; f < F; f++) posting.tfs.push(tfs[f]);
    }
  }

  query(text: string): LexicalQuery {
    const n = Math.max(1, this.live);
    const terms: LexicalQuery['terms'] = [];
    let norm = 0;
    for (const term of new Set(searchTerms(text))) {
      if (terms.length >= MAX_QUERY_TERMS) break;
      const id = this.termIds.get(term);
      const df = id === undefined ? 0 : this.docFrequency(id);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      terms.push({ id, text: term, idf });
      norm += idf;
    }
    return { text: text.slice(0, MAX_QUERY_CHARS), terms, norm };
  }

  /** Relevance (0–1) of every note sharing a word with the query; the best `k` first. */
  search(text: string, k: number): { path: string; relevance: number }[] {
    return this.best(this.query(text), k).ranked.map(({ score, slot }) => ({ path: this.docs[slot].path, relevance: score }));
  }

  /**
   * Relevance by path of the best `top` notes for the query and of those of `alsoPaths` that match
   * (hybrid: the lexical head and the vector side's notes). A broad query on a large kiln matches
   * most notes; a map and a sort of all of them took most of a search.
   */
  relevances(q: LexicalQuery, top: number, alsoPaths: Iterable<string>): Map<string, number> {
    const { scores, ranked } = this.best(q, top);
    const out = new Map(ranked.map(({ score, slot }) => [this.docs[slot].path, score]));
    for (const path of alsoPaths) {
      const doc = this.byPath.get(path);
      if (doc !== undefined && scores[doc] > 0) out.set(path, scores[doc]);
    }
    return out;
  }

  /** Every note's score for the query, and the best `k` notes (`slot`: the note's index) first. */
  private best(q: LexicalQuery, k: number): { scores: Float64Array; ranked: { score: number; slot: number }[] } {
    const { scores, touched } = this.scoreAll(q);
    const top = new TopK(Math.max(0, k));
    for (const doc of touched) top.push(scores[doc], doc);
    return { scores, ranked: top.sorted() };
  }

  /**
   * Relevance (0–1) of one section for the query: BM25 over its heading path and text, with the
   * notes' idf, normalized like a note's score. Ranks the sections inside a note.
   */
  sectionRelevance(q: LexicalQuery, chunk: ChunkRecord): number {
    if (q.norm === 0) return 0;
    const tokens = searchTerms(`${chunk.headingPath.join(' ')} ${chunk.text}`);
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    const avg = this.chunkTotal > 0 ? this.chunkLengthTotal / this.chunkTotal : tokens.length || 1;
    const norm = 1 - this.fields.body.b + (this.fields.body.b * tokens.length) / (avg || 1);
    let score = 0;
    for (const term of q.terms) {
      const tf = counts.get(term.text);
      if (!tf) continue;
      const t = tf / norm;
      score += (term.idf * t) / (K1 + t);
    }
    return score / q.norm;
  }

  /** Everything the index holds, compacted (no tombstones, one postings table), for the lexical file. */
  snapshot(): NoteBm25Snapshot {
    return compactSnapshot({
      termIds: this.termIds,
      offsets: this.offsets,
      postDocs: this.postDocs,
      postTfs: this.postTfs,
      added: this.added,
      docs: this.docs,
      dead: this.dead,
      live: this.live,
      lengths: this.lengths,
    });
  }

  /** An index from its snapshot (the lexical file), in slices: a large kiln has hundreds of thousands of terms. */
  static async load(snapshot: NoteBm25Snapshot, fields = DEFAULT_FIELDS): Promise<NoteBm25> {
    const index = new NoteBm25([], fields);
    for (let id = 0; id < snapshot.terms.length; id++) {
      index.termIds.set(snapshot.terms[id], id);
      if (id % 10_000 === 9_999) await nextTurn();
    }
    await index.adopt(snapshot);
    return index;
  }

  /** Takes the snapshot's postings and registers its notes, 10 000 between two turns of the event loop. */
  private async adopt(snapshot: NoteBm25Snapshot): Promise<void> {
    this.offsets = snapshot.offsets;
    this.postDocs = snapshot.postDocs;
    this.postTfs = snapshot.postTfs;
    const n = snapshot.notes.length;
    this.lengths = new Float32Array(Math.max(64, n * 2) * F);
    this.lengths.set(snapshot.lengths);
    this.dead = new Uint8Array(Math.max(64, n * 2));
    this.live = n;
    for (let doc = 0; doc < n; doc++) {
      const note = snapshot.notes[doc];
      this.docs.push({ path: note.path, chunkCount: note.chunks });
      this.byPath.set(note.path, doc);
      for (let f = 0; f < F; f++) this.totals[f] += snapshot.lengths[doc * F + f];
      this.chunkTotal += note.chunks;
      this.chunkLengthTotal += snapshot.lengths[doc * F + 3];
      if (doc % 10_000 === 9_999) await nextTurn();
    }
  }

  private scoreAll(q: LexicalQuery): { scores: Float64Array; touched: number[] } {
    const scores = new Float64Array(this.docs.length);
    const touched: number[] = [];
    if (q.norm === 0) return { scores, touched };
    const avg = Array.from(this.totals, (total) => (this.live > 0 ? total / this.live : 1) || 1);
    const params = FIELDS.map((name) => this.fields[name]);
    const add = (doc: number, tfs: ArrayLike<number>, at: number, idf: number) => {
      if (this.dead[doc]) return;
      let tf = 0;
      for (let f = 0; f < F; f++) {
        const count = tfs[at + f];
        if (count === 0) continue;
        const { weight, b } = params[f];
        tf += (weight * count) / (1 - b + (b * this.lengths[doc * F + f]) / avg[f]);
      }
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] += (idf * tf) / (K1 + tf) / q.norm;
    };
    for (const term of q.terms) {
      if (term.id === undefined) continue;
      const id = term.id;
      const [start, end] = id + 1 < this.offsets.length ? [this.offsets[id], this.offsets[id + 1]] : [0, 0];
      for (let p = start; p < end; p++) add(this.postDocs[p], this.postTfs, p * F, term.idf);
      const extra = this.added.get(id);
      extra?.docs.forEach((doc, i) => add(doc, extra.tfs, i * F, term.idf));
    }
    return { scores, touched };
  }

  private docFrequency(id: number): number {
    const base = id + 1 < this.offsets.length ? this.offsets[id + 1] - this.offsets[id] : 0;
    return base + (this.added.get(id)?.docs.length ?? 0);
  }

  /** Pass 1: each note's term counts and document frequencies; pass 2: postings laid out by term. */
  private *buildSteps(notes: Iterable<ChunkRecord[]>): Generator<void> {
    const docTerms: Map<number, number[]>[] = [];
    const df: number[] = [];
    for (const chunks of notes) {
      if (chunks.length === 0) continue;
      const terms = this.termsOf(chunks);
      docTerms.push(terms.counts);
      this.register(chunks, terms.lengths);
      for (const id of terms.counts.keys()) df[id] = (df[id] ?? 0) + 1;
      yield;
    }
    this.offsets = new Uint32Array(this.termIds.size + 1);
    for (let t = 0; t < this.termIds.size; t++) this.offsets[t + 1] = this.offsets[t] + (df[t] ?? 0);
    const fill = this.offsets.slice(0, -1);
    this.postDocs = new Uint32Array(this.offsets[this.offsets.length - 1]);
    this.postTfs = new Uint16Array(this.postDocs.length * F);
    for (let doc = 0; doc < docTerms.length; doc++) {
      for (const [id, tfs] of docTerms[doc]) {
        const at = fill[id]++;
        this.postDocs[at] = doc;
        for (let f = 0; f < F; f++) this.postTfs[at * F + f] = Math.min(tfs[f], 0xffff);
      }
      yield;
    }
  }

  /** Term id → counts per field, and the fields' lengths in words. */
  private termsOf(chunks: ChunkRecord[]): { counts: Map<number, number[]>; lengths: number[] } {
    const fields = noteFieldTerms(chunks);
    const counts = new Map<number, number[]>();
    fields.forEach((tokens, f) => {
      for (const token of tokens) {
        let id = this.termIds.get(token);
        if (id === undefined) {
          id = this.termIds.size;
          this.termIds.set(token, id);
        }
        let tfs = counts.get(id);
        if (!tfs) counts.set(id, (tfs = new Array<number>(F).fill(0)));
        tfs[f]++;
      }
    });
    return { counts, lengths: fields.map((t) => t.length) };
  }

  private register(chunks: ChunkRecord[], lengths: number[]): number {
    const doc = this.docs.length;
    this.docs.push({ path: chunks[0].notePath, chunkCount: chunks.length, chunks });
    if (doc >= this.dead.length) {
      const lens = new Float32Array(doc * 2 * F);
      lens.set(this.lengths);
      this.lengths = lens;
      const dead = new Uint8Array(doc * 2);
      dead.set(this.dead);
      this.dead = dead;
    }
    for (let f = 0; f < F; f++) {
      this.lengths[doc * F + f] = lengths[f];
      this.totals[f] += lengths[f];
    }
    this.chunkTotal += chunks.length;
    this.chunkLengthTotal += lengths[3];
    this.live++;
    this.byPath.set(chunks[0].notePath, doc);
    return doc;
  }
}
