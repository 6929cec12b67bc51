import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChunkRecord } from '../store/vectorStore';
import { DEFAULT_FIELDS, FIELDS, noteFieldTerms } from './noteFields';
import { bestNotes, lexicalQuery, sectionRelevance, type LexicalQuery } from './noteBm25Scoring';
import { PendingPostings } from './pendingPostings';
import { TermDictionary } from './termDictionary';
import { compactSnapshot, type NoteBm25Parts, type NoteBm25Snapshot } from './noteBm25Snapshot';

const F = FIELDS.length;
/** Notes taken from a snapshot between two turns of the event loop. */
const LOAD_SLICE = 10_000;

/** Notes changed or removed since the last build: past this share, a rebuild is worth it. */
const REBUILD_SHARE = 0.2;

export interface NoteBm25BuildOptions {
  /** Longest stretch of work between two returns to the event loop (default 8 ms). */
  sliceMs?: number;
  /** Also return to the event loop after this many steps (tests count these, not a clock). */
  sliceSteps?: number;
  signal?: AbortSignal;
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
  private termIds = new TermDictionary();
  private lastScoring?: { q: LexicalQuery; top: number; changed: number; result: ReturnType<typeof bestNotes> };
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
    return lexicalQuery(this.parts(), text);
  }

  /** Relevance (0–1) of every note sharing a word with the query; the best `k` first. */
  search(text: string, k: number): { path: string; relevance: number }[] {
    const { ranked } = bestNotes(this.parts(), this.fields, this.query(text), k);
    return ranked.map(({ score, slot }) => ({ path: this.docs[slot].path, relevance: score }));
  }

  /**
   * Relevance by path of the best `top` notes for the query and of those of `alsoPaths` that match
   * (hybrid: the lexical head and the vector side's notes). A broad query on a large kiln matches
   * most notes; a map and a sort of all of them took most of a search.
   */
  relevances(q: LexicalQuery, top: number, alsoPaths: Iterable<string>): Map<string, number> {
    const { scores, ranked } = this.scoring(q, top);
    const out = new Map(ranked.map(({ score, slot }) => [this.docs[slot].path, score]));
    for (const path of alsoPaths) {
      const doc = this.byPath.get(path);
      if (doc !== undefined && scores[doc] > 0) out.set(path, scores[doc]);
    }
    return out;
  }

  /**
   * Every note's score for the query, kept for that query (the same object) until a note changes:
   * a hybrid search scores its notes while its query is embedded (WordScores.prepare), then asks
   * again with the notes the vector side found — a second pass over every posting at 100k chunks.
   */
  private scoring(q: LexicalQuery, top: number): ReturnType<typeof bestNotes> {
    const last = this.lastScoring;
    if (last?.q === q && last.top === top && last.changed === this.changed) return last.result;
    const result = bestNotes(this.parts(), this.fields, q, top);
    this.lastScoring = { q, top, changed: this.changed, result };
    return result;
  }

  /** Relevance (0–1) of one section for the query (ranks the sections inside a note). */
  sectionRelevance(q: LexicalQuery, chunk: ChunkRecord): number {
    const avg = this.chunkTotal > 0 ? this.chunkLengthTotal / this.chunkTotal : undefined;
    return sectionRelevance(q, chunk, avg, this.fields.body.b);
  }

  /** Maps the loaded term list in slices (see TermDictionary): later changes then never stall on it. */
  mapTerms(signal?: AbortSignal): Promise<void> {
    return this.termIds.mapInSlices(signal);
  }

  /** The loaded term list named a term twice (found when mapped): the file was not Hearth's, rebuild it. */
  get termsListedTwice(): boolean {
    return this.termIds.duplicates;
  }

  /** Everything the index holds, compacted (no tombstones, one postings table), for the lexical file. */
  snapshot(): NoteBm25Snapshot {
    return compactSnapshot(this.parts());
  }

  /** The arrays as they are now (a build or an added note may have replaced them since the last call). */
  private parts(): NoteBm25Parts {
    return {
      termIds: this.termIds,
      offsets: this.offsets,
      postDocs: this.postDocs,
      postTfs: this.postTfs,
      added: this.added,
      docs: this.docs,
      dead: this.dead,
      live: this.live,
      lengths: this.lengths,
      totals: this.totals,
    };
  }

  /** An index from its snapshot (the lexical file), in slices: a large kiln has hundreds of thousands of terms. */
  static async load(snapshot: NoteBm25Snapshot, fields = DEFAULT_FIELDS): Promise<NoteBm25> {
    const index = new NoteBm25([], fields);
    index.termIds = new TermDictionary(snapshot.terms);
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
    for (let from = 0; from < n; from += LOAD_SLICE) {
      if (from > 0) await nextTurn();
      this.registerLoaded(snapshot, from, Math.min(n, from + LOAD_SLICE));
    }
  }

  private registerLoaded(snapshot: NoteBm25Snapshot, from: number, to: number): void {
    for (let doc = from; doc < to; doc++) {
      const note = snapshot.notes[doc];
      this.docs.push({ path: note.path, chunkCount: note.chunks });
      this.byPath.set(note.path, doc);
      for (let f = 0; f < F; f++) this.totals[f] += snapshot.lengths[doc * F + f];
      this.chunkTotal += note.chunks;
      this.chunkLengthTotal += snapshot.lengths[doc * F + 3];
    }
  }

  /**
   * Pass 1: each note's term counts and document frequencies, appended to flat typed arrays; pass 2:
   * postings laid out by term. (A map of arrays per note held ~100 bytes per posting: at 100k chunks
   * of a real vocabulary, millions of them and most of a 1.5 GB build.)
   */
  private *buildSteps(notes: Iterable<ChunkRecord[]>): Generator<void> {
    const pending = new PendingPostings();
    const docEnds: number[] = [];
    const df: number[] = [];
    for (const chunks of notes) {
      if (chunks.length === 0) continue;
      const terms = this.termsOf(chunks);
      this.register(chunks, terms.lengths);
      for (const [id, tfs] of terms.counts) {
        pending.push(id, tfs);
        df[id] = (df[id] ?? 0) + 1;
      }
      docEnds.push(pending.length);
      yield;
    }
    this.offsets = new Uint32Array(this.termIds.size + 1);
    for (let t = 0; t < this.termIds.size; t++) this.offsets[t + 1] = this.offsets[t] + (df[t] ?? 0);
    const fill = this.offsets.slice(0, -1);
    this.postDocs = new Uint32Array(this.offsets[this.offsets.length - 1]);
    this.postTfs = new Uint16Array(this.postDocs.length * F);
    let p = 0;
    for (let doc = 0; doc < docEnds.length; doc++) {
      p = pending.layOut(p, docEnds[doc], doc, fill, this.postDocs, this.postTfs);
      yield;
    }
  }

  /** Term id → counts per field, and the fields' lengths in words. */
  private termsOf(chunks: ChunkRecord[]): { counts: Map<number, number[]>; lengths: number[] } {
    const fields = noteFieldTerms(chunks);
    const counts = new Map<number, number[]>();
    fields.forEach((tokens, f) => {
      for (const token of tokens) {
        const id = this.termIds.idOf(token);
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
