import type { ScanRules } from '../kiln/kilnScanner.js';
import type { SearchResult } from './searchResult.js';
import { SearchQueryError } from './textSearch.js';
import { walkNotes } from './walkNotes.js';

/**
 * `property` mode: notes whose frontmatter has every `key=value` of the query (comma or space
 * separated, e.g. `status=draft tags=garden`). Values compare as text, case-insensitively; a list
 * property matches when it contains the value; `tags` also holds inline `#tags`. One result per
 * note (its frontmatter lines), in path order, score 1.
 */
export async function propertySearch(kilnRoot: string, rules: ScanRules, query: string, limit: number, signal?: AbortSignal): Promise<SearchResult[]> {
  const wanted = parsePropertyQuery(query);
  const results: SearchResult[] = [];
  await walkNotes(kilnRoot, rules, () => results.length >= limit, (note) => {
    const fields: Record<string, unknown> = { ...note.frontmatter, tags: note.tags };
    if (!wanted.every(([key, value]) => matches(fields[key], value))) return;
    const shown = wanted.map(([key]) => `${key}: ${JSON.stringify(fields[key])}`).join(', ');
    results.push({ path: note.path, title: note.title, heading: '', startLine: 1, endLine: Math.max(1, note.bodyStartLine - 1), score: 1, snippet: shown.slice(0, 200) });
  }, signal);
  return results;
}

export function parsePropertyQuery(query: string): [string, string][] {
  const pairs = query
    .split(/[,\s]+/)
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf('=');
      if (at <= 0) throw new SearchQueryError(`A property query is key=value pairs (e.g. status=draft tags=garden), not "${part}".`);
      return [part.slice(0, at), part.slice(at + 1)] as [string, string];
    });
  if (pairs.length === 0) throw new SearchQueryError('A property query needs at least one key=value pair.');
  return pairs;
}

function matches(actual: unknown, wanted: string): boolean {
  if (Array.isArray(actual)) return actual.some((item) => matches(item, wanted));
  if (actual === undefined || actual === null) return false;
  const text = actual instanceof Date ? actual.toISOString().slice(0, 10) : typeof actual === 'object' ? JSON.stringify(actual) : String(actual);
  return text.toLowerCase() === wanted.replace(/^#/, '').toLowerCase() || text.toLowerCase() === wanted.toLowerCase();
}
