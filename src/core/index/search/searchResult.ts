/** One search hit as every surface shows it (`hearth search --json` prints exactly these fields). */
export interface SearchResult {
  /** Kiln-relative note path, forward slashes. */
  path: string;
  title: string;
  /** Heading path of the hit (the note's best section), outermost first, joined with " > " ('' above the first heading). */
  heading: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /**
   * Relevance in 0–1, the same scale in every mode: 1 is a note matching the whole query (every
   * word, where it counts most, or the same meaning); see the README's "Search scores".
   */
  score: number;
  snippet: string;
  /** Note results only (absent with `chunks`): the note's other matching sections, best first. */
  sections?: SectionHit[];
}

/** A matching section of a note besides its best one. */
export interface SectionHit {
  heading: string;
  startLine: number;
  endLine: number;
  snippet: string;
  score: number;
}

export type SearchMode = 'hybrid' | 'semantic' | 'text' | 'property';

export const SEARCH_MODES: readonly SearchMode[] = ['hybrid', 'semantic', 'text', 'property'];

export function joinHeading(headingPath: readonly string[]): string {
  return headingPath.join(' > ');
}

/** Results without those that round to 0 % relevance (every surface shows whole percents): they only pad a list. */
export function withoutZeroRelevance<T extends { score: number }>(results: T[]): T[] {
  return results.filter((r) => Math.round(r.score * 100) > 0);
}

/** Scores are shown with 4 decimals at most (they are relevances, not measurements). */
export function roundScore(score: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * 1e4) / 1e4;
}
