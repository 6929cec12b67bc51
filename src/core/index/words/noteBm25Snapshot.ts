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
  // Terms still used, renumbered; postings of the bulk and of the second index merged per term.
  const terms: string[] = [];
  const offsets: number[] = [0];
  const docs: number[] = [];
  const tfs: number[] = [];
  for (const [term, id] of parts.termIds.entries()) {
    const start = docs.length;
    const [from, to] = id + 1 < parts.offsets.length ? [parts.offsets[id], parts.offsets[id + 1]] : [0, 0];
    for (let p = from; p < to; p++) {
      const d = newDoc[parts.postDocs[p]];
      if (d < 0) continue;
      docs.push(d);
      for (let f = 0; f < F; f++) tfs.push(parts.postTfs[p * F + f]);
    }
    const extra = parts.added.get(id);
    extra?.docs.forEach((doc, i) => {
      const d = newDoc[doc];
      if (d < 0) return;
      docs.push(d);
      for (let f = 0; f < F; f++) tfs.push(extra.tfs[i * F + f]);
    });
    if (docs.length === start) continue;
    terms.push(term);
    offsets.push(docs.length);
  }
  const lengths = new Float32Array(live.length * F);
  live.forEach((doc, i) => lengths.set(parts.lengths.subarray(doc * F, doc * F + F), i * F));
  return {
    terms: TermList.of(terms),
    offsets: Uint32Array.from(offsets),
    postDocs: Uint32Array.from(docs),
    postTfs: Uint16Array.from(tfs),
    lengths,
    notes: live.map((doc) => ({ path: parts.docs[doc].path, chunks: parts.docs[doc].chunkCount })),
  };
}
