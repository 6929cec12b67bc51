import type { SemanticHit, SemanticSearchFn } from '../kiln/tools/kilnTool.js';
import type { KilnIndex } from './kilnIndex.js';

/**
 * Backs the `semantic_search` kiln tool with the index. `beforeSearch` lets a host without a
 * background indexer (the CLI gateway) bring the index up to date first; the editor keeps it fresh
 * itself and passes nothing.
 */
export function indexSemanticSearch(index: () => KilnIndex | undefined, beforeSearch?: (index: KilnIndex) => Promise<unknown>): SemanticSearchFn {
  return async (query, limit, signal) => {
    const current = index();
    if (!current) return [];
    await beforeSearch?.(current);
    const results = await current.search(query, { mode: 'semantic', limit, signal, snippetChars: 1200 });
    return results.map(
      (r): SemanticHit => ({ path: r.path, score: r.score, text: r.snippet, heading: r.heading || undefined, startLine: r.startLine, endLine: r.endLine }),
    );
  };
}
