import type { SemanticSearchFn } from '../kiln/tools/kilnTool';
import type { KilnIndex } from './kilnIndex';

/**
 * Backs the `semantic_search` kiln tool with the index. `beforeSearch` lets a host without a
 * background indexer (the CLI gateway) bring the index up to date first; the editor keeps it fresh
 * itself and passes nothing.
 */
export function indexSemanticSearch(index: () => KilnIndex | undefined, beforeSearch?: (index: KilnIndex) => Promise<unknown>): SemanticSearchFn {
  return async (query, limit, signal, options = {}) => {
    const current = index();
    if (!current) return [];
    await beforeSearch?.(current);
    // Hybrid, as the quick pick: agents get the notes a person would (words and meaning).
    return current.search(query, { mode: 'hybrid', limit, signal, snippetChars: 1200, chunks: options.chunks });
  };
}
