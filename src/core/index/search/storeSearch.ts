import { parsePropertyQuery } from '../../kiln/propertySearch';
import { propertyResult } from './diskSearch';
import { rankHybrid, toResults } from './noteRanking';
import type { SearchResult } from './searchResult';
import { LEXICAL_DEPTH, StoreLexicon } from './storeLexicon';
import type { VectorStore } from '../store/vectorStore';

export interface StoreSearchOptions {
  limit: number;
  chunks?: boolean;
  snippetChars?: number;
  /** Text only: the notes under this kiln-relative folder. */
  folder?: string;
}

/**
 * Text and property search answered by a store that searches itself (the team database), or
 * undefined when this store leaves that mode to the notes on disk. Text is the lexical side of
 * hybrid alone, ranked by the same rankHybrid.
 */
export async function searchInStore(store: VectorStore, mode: 'text' | 'property', query: string, options: StoreSearchOptions): Promise<SearchResult[] | undefined> {
  if (mode === 'property') {
    if (!store.propertySearch) return undefined;
    const wanted = parsePropertyQuery(query);
    return (await store.propertySearch(wanted, options.limit)).map((note) => propertyResult(note, wanted));
  }
  if (!store.lexicalSearch) return undefined;
  const lexicon = await StoreLexicon.search(store, query, Math.max(options.limit * 2, LEXICAL_DEPTH), [], options.folder);
  const notes = options.chunks ? options.limit * 2 : options.limit;
  const ranked = rankHybrid(lexicon, lexicon.query(query), [], notes, { lexicalWeight: 1, chunksOf: (path) => lexicon.chunksOf(path) ?? [] });
  return toResults(ranked, query, options);
}
