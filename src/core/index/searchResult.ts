/** One search hit as every surface shows it (`hearth search --json` prints exactly these fields). */
export interface SearchResult {
  /** Kiln-relative note path, forward slashes. */
  path: string;
  title: string;
  /** Heading path of the hit, outermost first, joined with " > " ('' above the first heading). */
  heading: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Higher is better; its scale depends on the mode (cosine, fused reciprocal rank, or 1 for text and property). */
  score: number;
  snippet: string;
}

export type SearchMode = 'hybrid' | 'semantic' | 'text' | 'property';

export const SEARCH_MODES: readonly SearchMode[] = ['hybrid', 'semantic', 'text', 'property'];

export function joinHeading(headingPath: readonly string[]): string {
  return headingPath.join(' > ');
}
