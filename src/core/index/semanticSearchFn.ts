import type { SemanticSearchFn } from '../kiln/tools/kilnTool';
import type { KilnIndex } from './kilnIndex';
import { searchInStore } from './search/storeSearch';

/**
 * Backs the `semantic_search` kiln tool with the index, and `text_search` / `property_search` with
 * the store's own searches where it has them (the team database: every mode runs there, for agents
 * too). `beforeSearch` lets a host without a background indexer (the CLI gateway) bring the index
 * up to date first; the editor keeps it fresh itself and passes nothing.
 */
export function indexSemanticSearch(index: () => KilnIndex | undefined, beforeSearch?: (index: KilnIndex) => Promise<unknown>): SemanticSearchFn {
  /** The index, up to date, when its store searches itself; a flat store is neither opened nor updated. */
  const searching = async () => {
    const current = index();
    if (current?.kind !== 'postgres') return undefined;
    await beforeSearch?.(current);
    return current;
  };
  const search: SemanticSearchFn = async (query, limit, signal, options = {}) => {
    const current = index();
    if (!current) return [];
    await beforeSearch?.(current);
    // Hybrid, as the quick pick: agents get the notes a person would (words and meaning).
    return current.search(query, { mode: 'hybrid', limit, signal, snippetChars: 1200, chunks: options.chunks });
  };
  search.text = async (query, limit, _signal, options = {}) =>
    (await searching())?.inOwnStore('text', (store) => searchInStore(store, 'text', query, { limit, chunks: options.chunks, snippetChars: options.snippetChars, folder: options.folder }));
  search.indexing = () => index()?.indexing;
  // Related notes by note read the index's own vectors: up to date first, as a search would be.
  search.notes = async () => {
    const current = index();
    if (current) await beforeSearch?.(current);
    return current;
  };
  search.wordsOnly = () => index()?.wordsOnly;
  search.properties = async (wanted, limit) =>
    (await searching())?.inOwnStore('property', async (store) => store.propertySearch?.(wanted, limit));
  return search;
}
