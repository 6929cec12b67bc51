/**
 * The ranked modes of a search — hybrid and semantic — over an opened store: the query's vector
 * from the store's nearest chunks, the words from the in-process lexical side (the flat stores) or
 * the store's own full-text search (the team database), fused per note by noteRanking. KilnIndex
 * opens the store, starts the query's embedding and hands both here.
 */
import { rankHybrid, rankSemantic, toResults, WordScores, type RankedNote } from './noteRanking';
import type { SearchMode, SearchResult } from './searchResult';
import type { ChunkRecord, SearchHit, VectorStore } from '../store/vectorStore';
import type { QueryLexicon } from '../words/queryLexicon';
import { noteChunks, type StoreBm25 } from '../words/storeBm25';
import { LEXICAL_DEPTH, StoreLexicon } from './storeLexicon';

export interface SearchRequest {
  mode?: SearchMode;
  limit?: number;
  signal?: AbortSignal;
  /** Longest snippet (default 200 characters; tools for agents ask for more). */
  snippetChars?: number;
  /** Per-chunk results (the shape before results were notes) instead of one result per note. */
  chunks?: boolean;
  /** Hybrid only: the lexical side's weight (0–1; `npm run eval` measures each side alone with 1 and 0). */
  lexicalWeight?: number;
  /** Hybrid only: the lexical side alone, without embedding the query (chat auto context while no model is loaded). */
  lexicalOnly?: boolean;
  /** The query's embedding, already requested with embedQuery (a host overlapping it with an index run). */
  queryVector?: Promise<Float32Array>;
}

/** What a ranked search reads: the opened store, the in-process lexical side, and how often the notes changed. */
export interface RankedSearchSides {
  store: VectorStore;
  lexicalSide: StoreBm25;
  /** Runs and clears started and ended (`mutations`), and runs writing now (`writing`). */
  changes(): { mutations: number; writing: number };
}

/** Chunks asked of the vector side per note wanted (notes have several chunks each). */
const CHUNKS_PER_NOTE = 5;

/** A note's chunks for ranking: the lexical side's when it holds them (one loaded from its file holds none), else the store's. */
function chunkSource(lexicon: { chunksOf(path: string): ChunkRecord[] | undefined }, store: VectorStore): (path: string) => ChunkRecord[] {
  return (path) => lexicon.chunksOf(path) ?? noteChunks(store, path);
}

/** A request whose limit the caller has settled (KilnIndex.search's default). */
type LimitedRequest = SearchRequest & { limit: number };

/** Hybrid search on the words alone, with no embedding asked for (`lexicalOnly`). */
export async function lexicalOnlySearch(sides: RankedSearchSides, query: string, request: LimitedRequest): Promise<SearchResult[]> {
  const { store } = sides;
  const { limit } = request;
  const lexicon = store.lexicalSearch ? await StoreLexicon.search(store, query, Math.max(limit * 2, LEXICAL_DEPTH)) : await sides.lexicalSide.forQuery(store, query);
  const notes = request.chunks ? limit * 2 : limit;
  const lexical = rankHybrid(lexicon, lexicon.query(query), [], notes, { lexicalWeight: 1, chunksOf: chunkSource(lexicon, store) });
  return toResults(lexical, query, { chunks: request.chunks, limit, snippetChars: request.snippetChars });
}

/** A hybrid or semantic search, `embedding` being the query's vector on its way. */
export async function rankedSearch(sides: RankedSearchSides, query: string, mode: 'hybrid' | 'semantic', embedding: Promise<Float32Array>, request: LimitedRequest): Promise<SearchResult[]> {
  const { store } = sides;
  const { limit } = request;
  // With `chunks` the notes are the source of the chunks: a few more of them leave room to choose.
  const notes = request.chunks ? limit * 2 : limit;
  // The lexical side loads (its file read and checked) and scores its best notes while the query
  // is still being embedded (by a worker thread or a web service).
  // Notes that change meanwhile (a run, which another search then swaps into the same lexical
  // side) make what was computed stale: the ranking then scores them as they are, as before.
  const before = sides.changes();
  const settled = before.writing === 0 ? before.mutations : undefined;
  let inProcess = mode === 'hybrid' && !store.lexicalSearch ? await wordSide(sides, query, notes) : undefined;
  const vector = await embedding;
  if (inProcess && settled !== sides.changes().mutations) inProcess = { lexicon: inProcess.lexicon, words: new WordScores(inProcess.lexicon, inProcess.lexicon.query(query)) };
  let ranked: RankedNote[];
  if (mode === 'semantic') {
    ranked = rankSemantic(await vectorHits(store, vector, notes), notes);
  } else {
    const nearest = await store.search(vector, Math.max(notes * CHUNKS_PER_NOTE, 50));
    // The store's own full-text search also scores the notes the vector side found.
    const vectorNotes = [...new Set(nearest.map((h) => h.notePath))];
    const lexicon = inProcess?.lexicon ?? (await StoreLexicon.search(store, query, Math.max(notes, LEXICAL_DEPTH), vectorNotes));
    const chunksOf = chunkSource(lexicon, store);
    ranked = rankHybrid(lexicon, inProcess?.words.q ?? lexicon.query(query), nearest, notes, { lexicalWeight: request.lexicalWeight, chunksOf, words: inProcess?.words });
  }
  return toResults(ranked, query, { chunks: request.chunks, limit, snippetChars: request.snippetChars });
}

/** The in-process lexical side of a hybrid search, with the word-side scores of its best notes computed. */
async function wordSide(sides: RankedSearchSides, query: string, notes: number): Promise<{ lexicon: QueryLexicon; words: WordScores }> {
  const lexicon = await sides.lexicalSide.forQuery(sides.store, query);
  const words = new WordScores(lexicon, lexicon.query(query));
  words.prepare(notes, chunkSource(lexicon, sides.store));
  return { lexicon, words };
}

/** Enough vector hits to cover `notes` distinct notes (or every chunk). */
async function vectorHits(store: VectorStore, vector: Float32Array, notes: number): Promise<SearchHit[]> {
  for (let depth = Math.max(notes * CHUNKS_PER_NOTE, 50); ; depth *= 4) {
    const hits = await store.search(vector, depth);
    if (hits.length < depth || new Set(hits.map((h) => h.notePath)).size >= notes) return hits;
  }
}
