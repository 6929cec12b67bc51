import { FIELDS } from './noteFields';
import type { TermDictionary } from './termDictionary';
import { TermList } from './termList';

const F = FIELDS.length;

/** The index as plain arrays (what the lexical file stores). */
export interface NoteBm25Snapshot {
  terms: TermList;
  /** Per term, where its postings start in postDocs (terms.length + 1 entries). */
  offsets: Uint32Array;
  postDocs: Uint32Array;
  /** Four counts (title, headings, lead, body) per posting. */
  postTfs: Uint16Array;
  /** Four field lengths per note. */
  lengths: Float32Array;
  notes: { path: string; chunks: number }[];
}

/** The in-memory index's arrays, as NoteBm25 keeps them (the bulk, the second index, tombstones). */
export interface NoteBm25Parts {
  termIds: Pick<TermDictionary, 'get' | 'size' | 'entries' | 'keys'>;
  offsets: Uint32Array;
  postDocs: Uint32Array;
  postTfs: Uint16Array;
  /** Postings of notes added after the build, by term id (four counts per posting). */
  added: ReadonlyMap<number, { docs: readonly number[]; tfs: readonly number[] }>;
  docs: readonly { path: string; chunkCount: number }[];
  /** 1 for a removed (or replaced) note. */
  dead: Uint8Array;
  /** Notes not removed. */
  live: number;
  lengths: Float32Array;
  /** Sum of each field's length over the live notes. */
  totals: Float64Array;
}

/** The parts as one snapshot: live notes renumbered, unused terms dropped, both postings merged per term. */
export function compactSnapshot(parts: NoteBm25Parts): NoteBm25Snapshot {
  // Fresh from a build (nothing removed or added since): the arrays already are the snapshot.
  if (parts.added.size === 0 && parts.live === parts.docs.length && parts.offsets.length === parts.termIds.size + 1) {
    return {
      terms: TermList.of([...parts.termIds.keys()]),
      offsets: parts.offsets,
      postDocs: parts.postDocs,
      postTfs: parts.postTfs,
      lengths: parts.lengths.subarray(0, parts.docs.length * F),
      notes: parts.docs.map((d) => ({ path: d.path, chunks: d.chunkCount })),
    };
  }
  const live = parts.docs.map((_, doc) => doc).filter((doc) => !parts.dead[doc]);
  const newDoc = new Int32Array(parts.docs.length).fill(-1);
  live.forEach((doc, i) => (newDoc[doc] = i));
  // Terms still used, renumbered; postings of the bulk and of the second index merged per term, into
  // typed arrays of the most they can hold (arrays of numbers grown push by push took ~600 MB at 100k chunks).
  let bound = parts.postDocs.length;
  for (const extra of parts.added.values()) bound += extra.docs.length;
  const terms: string[] = [];
  const offsets = new Uint32Array(parts.termIds.size + 1);
  const docs = new Uint32Array(bound);
  const tfs = new Uint16Array(bound * F);
  let n = 0;
  for (const [term, id] of parts.termIds.entries()) {
    const start = n;
    const [from, to] = id + 1 < parts.offsets.length ? [parts.offsets[id], parts.offsets[id + 1]] : [0, 0];
    n = mergeLive(parts.postDocs, parts.postTfs, from, to, newDoc, docs, tfs, n);
    const extra = parts.added.get(id);
    extra?.docs.forEach((doc, i) => {
      const d = newDoc[doc];
      if (d < 0) return;
      docs[n] = d;
      for (let f = 0; f < F; f++) tfs[n * F + f] = extra.tfs[i * F + f];
      n++;
    });
    if (n === start) continue;
    terms.push(term);
    offsets[terms.length] = n;
  }
  const lengths = new Float32Array(live.length * F);
  live.forEach((doc, i) => lengths.set(parts.lengths.subarray(doc * F, doc * F + F), i * F));
  return {
    terms: TermList.of(terms),
    offsets: offsets.slice(0, terms.length + 1),
    postDocs: docs.slice(0, n),
    postTfs: tfs.slice(0, n * F),
    lengths,
    notes: live.map((doc) => ({ path: parts.docs[doc].path, chunks: parts.docs[doc].chunkCount })),
  };
}

/** Copies the postings [from, to) of live notes, renumbered, to `docs`/`tfs` at `n`; the new `n` (a hot loop, optimized alone). */
function mergeLive(postDocs: Uint32Array, postTfs: Uint16Array, from: number, to: number, newDoc: Int32Array, docs: Uint32Array, tfs: Uint16Array, n: number): number {
  for (let p = from; p < to; p++) {
    const d = newDoc[postDocs[p]];
    if (d < 0) continue;
    docs[n] = d;
    for (let f = 0; f < F; f++) tfs[n * F + f] = postTfs[p * F + f];
    n++;
  }
  return n;
}
