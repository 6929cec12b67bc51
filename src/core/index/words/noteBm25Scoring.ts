import { TopK } from '../store/quantize';
import type { ChunkRecord } from '../store/vectorStore';
import { FIELDS, type FieldParams } from './noteFields';
import type { NoteBm25Parts } from './noteBm25Snapshot';
import { fold, searchTerm, searchTerms, termProbe, tokenizeFolded } from './tokenize';

const F = FIELDS.length;
const K1 = 1.2;
/** A query's first this many distinct words count; a pasted page does not cost a scan per word. */
const MAX_QUERY_TERMS = 256;
const MAX_QUERY_CHARS = 4000;

/** The query as the index scores it: distinct known and unknown words with their idf. */
export interface LexicalQuery {
  /** The query as given (capped). */
  text: string;
  terms: { id: number | undefined; text: string; idf: number }[];
  /** Sum of every query word's idf: the score a note matching them all fully would reach. */
  norm: number;
}

/** The query's distinct words, their term ids in the index and their idf over the live notes. */
export function lexicalQuery(parts: NoteBm25Parts, text: string): LexicalQuery {
  const n = Math.max(1, parts.live);
  const terms: LexicalQuery['terms'] = [];
  let norm = 0;
  for (const term of new Set(searchTerms(text))) {
    if (terms.length >= MAX_QUERY_TERMS) break;
    const id = parts.termIds.get(term);
    const df = id === undefined ? 0 : docFrequency(parts, id);
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    terms.push({ id, text: term, idf });
    norm += idf;
  }
  return { text: text.slice(0, MAX_QUERY_CHARS), terms, norm };
}

/** Every note's score for the query, and the best `k` notes (`slot`: the note's index) first. */
export function bestNotes(
  parts: NoteBm25Parts,
  fields: Record<(typeof FIELDS)[number], FieldParams>,
  q: LexicalQuery,
  k: number,
): { scores: Float64Array; ranked: { score: number; slot: number }[] } {
  const { scores, touched } = scoreAll(parts, fields, q);
  const top = new TopK(Math.max(0, k));
  for (const doc of touched) top.push(scores[doc], doc);
  return { scores, ranked: top.sorted() };
}

/**
 * Relevance (0–1) of one section for the query: BM25 over its heading path and text, with the
 * notes' idf, normalized like a note's score. `avgLength` is the notes' mean body length per chunk.
 */
export function sectionRelevance(q: LexicalQuery, chunk: ChunkRecord, avgLength: number | undefined, bodyB: number): number {
  if (q.norm === 0) return 0;
  const text = `${chunk.headingPath.join(' ')} ${chunk.text}`;
  // Most sections of a long note hold none of the query's words: a substring test rules them out.
  const folded = fold(text);
  const { probes, opensWithProbe } = probesOf(q);
  if (!probes.some((probe) => folded.includes(probe))) return 0;
  // Only a word that opens with a probe can be a query term: the others count for the length alone, unstemmed.
  const words = tokenizeFolded(folded);
  const counts = probedTermCounts(words, opensWithProbe);
  const avg = avgLength ?? (words.length || 1);
  const norm = 1 - bodyB + (bodyB * words.length) / (avg || 1);
  let score = 0;
  for (const term of q.terms) {
    const tf = counts.get(term.text);
    if (!tf) continue;
    const t = tf / norm;
    score += (term.idf * t) / (K1 + t);
  }
  return score / q.norm;
}

/** Search terms counted, of the words that open with a probe (a small function: its loop is optimized alone, quickly). */
function probedTermCounts(words: readonly string[], opensWithProbe: RegExp): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) {
    if (!opensWithProbe.test(word)) continue;
    const term = searchTerm(word);
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

/** A query's term probes, and one pattern for "opens with one of them" (made once per query, not per section). */
const probeCache = new WeakMap<LexicalQuery, { probes: string[]; opensWithProbe: RegExp }>();

function probesOf(q: LexicalQuery): { probes: string[]; opensWithProbe: RegExp } {
  let cached = probeCache.get(q);
  if (!cached) {
    const probes = [...new Set(q.terms.map((term) => termProbe(term.text)))];
    const opensWithProbe = new RegExp(`^(?:${probes.map((probe) => probe.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'u');
    probeCache.set(q, (cached = { probes, opensWithProbe }));
  }
  return cached;
}

function scoreAll(parts: NoteBm25Parts, fields: Record<(typeof FIELDS)[number], FieldParams>, q: LexicalQuery): { scores: Float64Array; touched: number[] } {
  const scores = new Float64Array(parts.docs.length);
  const touched: number[] = [];
  if (q.norm === 0) return { scores, touched };
  const { offsets, postDocs, postTfs, added, dead, lengths, live } = parts;
  const avg = Array.from(parts.totals, (total) => (live > 0 ? total / live : 1) || 1);
  const params = FIELDS.map((name) => fields[name]);
  const add = (doc: number, tfs: ArrayLike<number>, at: number, idf: number) => {
    if (dead[doc]) return;
    let tf = 0;
    for (let f = 0; f < F; f++) {
      const count = tfs[at + f];
      if (count === 0) continue;
      const { weight, b } = params[f];
      tf += (weight * count) / (1 - b + (b * lengths[doc * F + f]) / avg[f]);
    }
    if (scores[doc] === 0) touched.push(doc);
    scores[doc] += (idf * tf) / (K1 + tf) / q.norm;
  };
  for (const term of q.terms) {
    if (term.id === undefined) continue;
    const id = term.id;
    const [start, end] = id + 1 < offsets.length ? [offsets[id], offsets[id + 1]] : [0, 0];
    for (let p = start; p < end; p++) add(postDocs[p], postTfs, p * F, term.idf);
    const extra = added.get(id);
    extra?.docs.forEach((doc, i) => add(doc, extra.tfs, i * F, term.idf));
  }
  return { scores, touched };
}

/**
 * The live notes holding the term. A note changed since the build is tombstoned in the bulk postings
 * and listed again in `added`: counting its old posting too gave a patched index other idfs (other
 * scores) than a rebuild of the same notes.
 */
function docFrequency(parts: NoteBm25Parts, id: number): number {
  const { offsets, postDocs, dead } = parts;
  const [start, end] = id + 1 < offsets.length ? [offsets[id], offsets[id + 1]] : [0, 0];
  const extra = parts.added.get(id)?.docs ?? [];
  if (parts.live === parts.docs.length) return end - start + extra.length;
  return liveCount(postDocs, start, end, dead) + extra.filter((doc) => !dead[doc]).length;
}

/** Postings in [start, end) of notes not tombstoned (a small function: its loop is optimized alone). */
function liveCount(postDocs: Uint32Array, start: number, end: number, dead: Uint8Array): number {
  let live = 0;
  for (let p = start; p < end; p++) if (!dead[postDocs[p]]) live++;
  return live;
}
