import type { LexicalQuery } from '../words/noteBm25Scoring';
import { joinHeading, roundScore, type SearchResult } from './searchResult';
import { makeSnippet } from './snippet';
import { fold, tokenize, tokenizeFolded } from '../words/tokenize';
import type { ChunkRecord, SearchHit } from '../store/vectorStore';

/**
 * Weight of the lexical relevance in a hybrid score (the vector side has the rest). Tuned on the dev
 * set with a weak embedder: from 0.6 to 0.9 the vector side cost the right note its first place in a
 * few queries; at 0.95 hybrid is never worse than either side alone. Words decide, meaning breaks
 * ties and finds the notes that share no word with the query.
 */
export const LEXICAL_WEIGHT = 0.95;
/** A result lists at most this many other sections of its note. */
export const MAX_SECTIONS = 8;

export interface ScoredSection {
  chunk: ChunkRecord;
  score: number;
}

/** One note of a ranking: its score and its matching sections, best first (at least one). */
export interface RankedNote {
  path: string;
  score: number;
  sections: ScoredSection[];
}

/**
 * The hits by note, each with its cosine clipped to 0–1 (opposite meaning is no relevance). A hit's
 * chunk is not read here: most notes of a hybrid search's vector side never reach the results.
 */
function vectorSide(hits: SearchHit[]): Map<string, ScoredSection[]> {
  const byNote = new Map<string, ScoredSection[]>();
  for (const hit of hits) {
    const section = { get chunk() { return hit.chunk; }, score: Math.max(0, Math.min(1, hit.score)) };
    const list = byNote.get(hit.notePath);
    if (list) list.push(section);
    else byNote.set(hit.notePath, [section]);
  }
  return byNote;
}

/** Semantic mode: a note scores its best chunk's cosine; its other chunks among the hits are its sections. */
export function rankSemantic(hits: SearchHit[], limit: number): RankedNote[] {
  const byNote = vectorSide(hits);
  return [...byNote]
    .map(([path, sections]) => ({ path, score: sections[0].score, sections: sections.sort((a, b) => b.score - a.score) }))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
    .slice(0, limit);
}

/** What ranking asks of the lexical side: NoteBm25 in process, or a store's own full-text search (StoreLexicon). */
export interface LexicalRanker {
  /**
   * Relevance (0–1) by note path of the notes the lexical side found: at least its best `top` and,
   * of `alsoPaths`, those it found (a side may return more).
   */
  relevances(q: LexicalQuery, top: number, alsoPaths: Iterable<string>): Map<string, number>;
  /** One section's own relevance (0–1). */
  sectionRelevance(q: LexicalQuery, chunk: ChunkRecord): number;
  chunksOf(notePath: string): ChunkRecord[] | undefined;
}

/**
 * Hybrid: each candidate note (the lexical top and every note the vector side found) scores
 * `LEXICAL_WEIGHT · lexical + (1 − LEXICAL_WEIGHT) · cosine`, both relevances in 0–1, so a note
 * must do well on both sides to beat a clear match on one. Sections are ranked the same way, from
 * each section's own BM25 and cosine.
 */
export interface HybridOptions {
  lexicalWeight?: number;
  /** A note's chunks in line order (the lexical index loaded from disk holds none; the store has them). */
  chunksOf?: (notePath: string) => ChunkRecord[];
  /** The word side already computed for this query (WordScores.prepare). */
  words?: WordScores;
}

export function rankHybrid(lexicon: LexicalRanker, q: LexicalQuery, hits: SearchHit[], limit: number, options: HybridOptions = {}): RankedNote[] {
  const lexicalWeight = options.lexicalWeight ?? LEXICAL_WEIGHT;
  const words = options.words ?? new WordScores(lexicon, q);
  const byNote = vectorSide(hits);
  const lexical = lexicon.relevances(q, lexicalHeadDepth(limit), byNote.keys());
  const chunksOf = (path: string) => {
    const chunks = options.chunksOf?.(path) ?? lexicon.chunksOf(path);
    return chunks?.length ? chunks : (byNote.get(path)?.map((s) => s.chunk) ?? []);
  };
  const candidates = new Map<string, number>();
  for (const [path, relevance] of lexical) candidates.set(path, lexicalWeight * relevance);
  for (const [path, sections] of byNote) {
    const best = Math.max(...sections.map((s) => s.score));
    candidates.set(path, (candidates.get(path) ?? 0) + (1 - lexicalWeight) * best);
  }
  const sorted = [...candidates].sort(byScoreThenPath);
  // Phrases: the leading candidates are re-ranked by how many of the query's word pairs they contain
  // in that order (a half-remembered sentence often keeps a few of its word pairs).
  if (words.pairs.size > 0) {
    const head = sorted.slice(0, rerankDepth(limit));
    for (const entry of head) entry[1] = (1 - PHRASE_WEIGHT - TITLE_WEIGHT) * entry[1] + words.phraseScore(entry[0], chunksOf(entry[0]));
    head.sort(byScoreThenPath);
    sorted.splice(0, head.length, ...head);
  }
  const top = sorted.slice(0, limit);
  return top.map(([path, score]) => {
    const chunks = chunksOf(path);
    // The note's hits by chunk id (only the notes shown read their hits' chunks).
    const byChunk = new Map((byNote.get(path) ?? []).map((hit) => [hit.chunk.id, hit.score]));
    const sections: ScoredSection[] = [];
    for (const chunk of chunks) {
      const relevance = words.sectionRelevance(chunk);
      const cosine = byChunk.get(chunk.id);
      if (relevance === 0 && cosine === undefined) continue;
      sections.push({ chunk, score: lexicalWeight * relevance + (1 - lexicalWeight) * (cosine ?? 0) });
    }
    // A note found by the vector side only through chunks BM25 never saw (a race with a run) still shows one.
    if (sections.length === 0 && chunks[0]) sections.push({ chunk: chunks[0], score });
    sections.sort((a, b) => b.score - a.score || a.chunk.startLine - b.chunk.startLine);
    return { path, score, sections };
  });
}

const byScoreThenPath = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);

/**
 * The word side of a hybrid ranking that depends on one note alone (its phrase and title score,
 * its sections' relevance), kept for one query as it is computed. A search waiting for its query's
 * embedding computes them for the lexical side's best notes meanwhile (`prepare`); rankHybrid then
 * computes only those of the notes the vector side brings.
 */
export class WordScores {
  readonly pairs: Set<string>;
  private readonly phrase = new Map<string, number>();
  private readonly relevance = new Map<ChunkRecord, number>();

  constructor(
    private readonly lexicon: LexicalRanker,
    readonly q: LexicalQuery,
  ) {
    this.pairs = queryPairs(q);
  }

  /** What the phrase re-rank adds to a note's score: its word pairs and its title words, weighted. */
  phraseScore(path: string, chunks: ChunkRecord[]): number {
    let score = this.phrase.get(path);
    if (score === undefined) {
      score = PHRASE_WEIGHT * pairCoverage(this.pairs, chunks) + TITLE_WEIGHT * titleCoverage(this.q, chunks);
      this.phrase.set(path, score);
    }
    return score;
  }

  sectionRelevance(chunk: ChunkRecord): number {
    let relevance = this.relevance.get(chunk);
    if (relevance === undefined) {
      relevance = this.lexicon.sectionRelevance(this.q, chunk);
      this.relevance.set(chunk, relevance);
    }
    return relevance;
  }

  /**
   * Computes what rankHybrid will ask first, from the words alone: the phrase scores of the lexical
   * side's re-ranked head and the section relevances of its first `limit` notes (the vector side
   * moves few notes into or out of these, with its 1 − LEXICAL_WEIGHT of the score).
   */
  prepare(limit: number, chunksOf: (path: string) => ChunkRecord[]): void {
    // The depth rankHybrid asks for: a lexical side that keeps its last scoring answers it again at no cost.
    const head = [...this.lexicon.relevances(this.q, lexicalHeadDepth(limit), [])].sort(byScoreThenPath).slice(0, rerankDepth(limit));
    for (const [i, [path]] of head.entries()) {
      const chunks = chunksOf(path);
      if (this.pairs.size > 0) this.phraseScore(path, chunks);
      if (i < limit) for (const chunk of chunks) this.sectionRelevance(chunk);
    }
  }
}

/** Candidates re-ranked by phrase, and the weight of the phrase part in their score. */
const RERANK_DEPTH = 30;
const rerankDepth = (limit: number) => Math.max(RERANK_DEPTH, limit);
/**
 * The lexical notes a hybrid ranking scores: a note outside the lexical head and unseen by the
 * vector side cannot reach the re-ranked head (at least that many notes score above it). Twice the
 * head, so ties at its edge fall as a full sort would.
 */
const lexicalHeadDepth = (limit: number) => 2 * rerankDepth(limit);
const PHRASE_WEIGHT = 0.2;
/** Characters of a note read for its word pairs (the opening of a long note says what it is about). */
const PHRASE_CHARS = 6_000;

function queryPairs(q: LexicalQuery): Set<string> {
  const pairs = new Set<string>();
  const words = tokenize(q.text);
  for (let i = 0; i + 1 < words.length && pairs.size < 64; i++) pairs.add(`${words[i]} ${words[i + 1]}`);
  return pairs;
}

const TITLE_WEIGHT = 0.15;

/** Share of the note's title words (title or file name, the better) that the query names. */
function titleCoverage(q: LexicalQuery, chunks: ChunkRecord[]): number {
  if (chunks.length === 0) return 0;
  const words = new Set(tokenize(q.text));
  const share = (text: string) => {
    const title = new Set(tokenize(text));
    if (title.size === 0) return 0;
    let hit = 0;
    for (const w of title) if (words.has(w)) hit++;
    return hit / title.size;
  };
  const name = chunks[0].notePath.replace(/\.(md|markdown)$/i, '').split('/').pop() ?? '';
  return Math.max(share(chunks[0].title), share(name));
}

/** Share of the query's word pairs found, in order, in the note's title, headings and text. */
function pairCoverage(pairs: Set<string>, chunks: ChunkRecord[]): number {
  if (chunks.length === 0) return 0;
  let text = `${chunks[0].title}\n`;
  for (const chunk of chunks) {
    if (text.length > PHRASE_CHARS) break;
    text += `${chunk.text}\n`;
  }
  const folded = fold(text.slice(0, PHRASE_CHARS));
  const split = [...pairs].map((pair) => [pair.slice(0, pair.indexOf(' ')), pair.slice(pair.indexOf(' ') + 1)]);
  // A pair's two words must both be in the text for it to be found: most candidates are ruled out here.
  if (!split.some(([first, second]) => folded.includes(first) && folded.includes(second))) return 0;
  // Only a word that starts one of the query's pairs can start a match: no pair string for the rest.
  return pairsFound(tokenizeFolded(folded), pairs, new Set(split.map(([first]) => first))) / pairs.size;
}

/** Distinct `pairs` among consecutive `words` (a small function: its loop is optimized alone, quickly). */
function pairsFound(words: readonly string[], pairs: Set<string>, firsts: Set<string>): number {
  const seen = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) {
    if (!firsts.has(words[i])) continue;
    const pair = `${words[i]} ${words[i + 1]}`;
    if (pairs.has(pair)) seen.add(pair);
  }
  return seen.size;
}

export interface ResultOptions {
  /** Today's per-chunk results instead of one per note. */
  chunks?: boolean;
  limit: number;
  snippetChars?: number;
}

/** Notes as results (the best section's fields plus the others), or with `chunks` every section as its own result. */
export function toResults(ranked: RankedNote[], query: string, options: ResultOptions): SearchResult[] {
  const section = (s: ScoredSection) => ({
    heading: joinHeading(s.chunk.headingPath),
    startLine: s.chunk.startLine,
    endLine: s.chunk.endLine,
    snippet: makeSnippet(s.chunk.text, query, options.snippetChars),
    score: roundScore(s.score),
  });
  if (options.chunks) {
    return ranked
      .flatMap((note) => note.sections.map((s) => ({ s, noteScore: note.score })))
      .sort((a, b) => b.s.score - a.s.score || b.noteScore - a.noteScore)
      .slice(0, options.limit)
      .map(({ s }) => {
        const { heading, startLine, endLine, snippet, score } = section(s);
        return { path: s.chunk.notePath, title: s.chunk.title, heading, startLine, endLine, score, snippet };
      });
  }
  return ranked.slice(0, options.limit).map((note) => {
    const [best, ...others] = note.sections;
    const { heading, startLine, endLine, snippet } = section(best);
    return { path: note.path, title: best.chunk.title, heading, startLine, endLine, score: roundScore(note.score), snippet, sections: others.slice(0, MAX_SECTIONS).map(section) };
  });
}

/** Text mode: matching lines (path order, score 1) grouped into notes, the first line as the hit. */
export function groupLines(lines: SearchResult[], limit: number): SearchResult[] {
  const notes = new Map<string, SearchResult>();
  for (const line of lines) {
    const note = notes.get(line.path);
    if (note) {
      if (note.sections!.length < MAX_SECTIONS) {
        note.sections!.push({ heading: line.heading, startLine: line.startLine, endLine: line.endLine, snippet: line.snippet, score: line.score });
      }
    } else if (notes.size < limit) {
      notes.set(line.path, { ...line, sections: [] });
    }
  }
  return [...notes.values()];
}
