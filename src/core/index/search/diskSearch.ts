import type { ScanRules } from '../../kiln/kilnScanner';
import { parsePropertyQuery, propertySearch, noteProperties } from '../../kiln/propertySearch';
import { textSearch } from '../../kiln/textSearch';
import { joinHeading, type SearchResult } from './searchResult';
import { textPrefilter } from './textPrefilter';

/**
 * The `text` and `property` search modes: core/kiln's searches over the notes on disk (no index
 * needed), shaped as search results. Text: one result per matching line, score 1 (the line holds
 * exactly what was asked). Property: one result per note (its frontmatter lines), score 1.
 * `indexDir`: where the word index lies; text search then reads only the notes it cannot rule out.
 */
export async function textModeSearch(kilnRoot: string, rules: ScanRules, query: string, limit: number, signal?: AbortSignal, indexDir?: string): Promise<SearchResult[]> {
  const mayMatch = indexDir === undefined ? undefined : await textPrefilter(indexDir, query);
  const lines = await textSearch(kilnRoot, rules, query, limit, signal, mayMatch);
  return lines.map((hit) => ({
    path: hit.path, title: hit.title, heading: joinHeading(hit.headingPath), startLine: hit.line, endLine: hit.line, score: 1, snippet: hit.text.trim().slice(0, 200),
  }));
}

export async function propertyModeSearch(kilnRoot: string, rules: ScanRules, query: string, limit: number, signal?: AbortSignal): Promise<SearchResult[]> {
  const wanted = parsePropertyQuery(query);
  const notes = await propertySearch(kilnRoot, rules, wanted, limit, signal);
  return notes.map((note) => propertyResult({ path: note.path, title: note.title, fields: noteProperties(note), endLine: Math.max(1, note.bodyStartLine - 1) }, wanted));
}

/** A property search's note as a result (its frontmatter lines, the wanted properties as the snippet), wherever it was found. */
export function propertyResult(
  note: { path: string; title: string; fields: Record<string, unknown>; endLine: number }, wanted: readonly (readonly [string, unknown])[],
): SearchResult {
  const shown = wanted.map(([key]) => `${key}: ${JSON.stringify(note.fields[key])}`).join(', ');
  return { path: note.path, title: note.title, heading: '', startLine: 1, endLine: note.endLine, score: 1, snippet: shown.slice(0, 200) };
}
