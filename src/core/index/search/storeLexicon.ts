import type { LexicalQuery } from '../words/noteBm25Scoring';
import type { LexicalRanker } from './noteRanking';
import { tokenize } from '../words/tokenize';
import type { ChunkRecord, LexicalNote, VectorStore } from '../store/vectorStore';

/** Notes asked of a store's own full-text search: at least as many as hybrid's phrase re-ranking reads. */
export const LEXICAL_DEPTH = 30;

/** As NoteBm25's query: a pasted page is read this far, and this many of its distinct words count. */
const MAX_QUERY_CHARS = 4000;
const MAX_QUERY_TERMS = 256;

/**
 * The lexical side of a store that ranks words itself (the team database's full-text search),
 * shaped for the one ranking, rankHybrid (text mode is its lexical side alone): the store's notes
 * with their relevances, looked up by path and chunk. The query's words only serve hybrid's phrase
 * and title re-ranking; the store's own parser decided what matched.
 */
export class StoreLexicon implements LexicalRanker {
  private readonly byPath = new Map<string, LexicalNote>();
  private readonly bySection = new Map<string, number>();

  private constructor(
    private readonly store: VectorStore,
    readonly notes: LexicalNote[],
  ) {
    for (const note of notes) {
      this.byPath.set(note.path, note);
      for (const s of note.sections) this.bySection.set(s.chunk.id, s.relevance);
    }
  }

  /** The store's best `notes` notes for the query (under `folder`, when given), and the relevance of those in `alsoPaths`. */
  static async search(store: VectorStore, query: string, notes: number, alsoPaths?: readonly string[], folder?: string): Promise<StoreLexicon> {
    if (!store.lexicalSearch) throw new TypeError(`The ${store.kind} store has no full-text search of its own.`);
    return new StoreLexicon(store, await store.lexicalSearch(query, notes, alsoPaths, folder));
  }

  query(text: string): LexicalQuery {
    const terms = [...new Set(tokenize(text.slice(0, MAX_QUERY_CHARS)))].slice(0, MAX_QUERY_TERMS).map((term) => ({ id: undefined, text: term, idf: 1 }));
    return { text: text.slice(0, MAX_QUERY_CHARS), terms, norm: terms.length };
  }

  relevances(): Map<string, number> {
    return new Map(this.notes.map((note) => [note.path, note.relevance]));
  }

  sectionRelevance(_q: LexicalQuery, chunk: ChunkRecord): number {
    return this.bySection.get(chunk.id) ?? 0;
  }

  chunksOf(notePath: string): ChunkRecord[] | undefined {
    return this.store.noteChunks?.(notePath);
  }
}
