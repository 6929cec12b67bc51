import type { ScanRules } from '../kiln/kilnScanner.js';
import { HearthError } from '../errors.js';
import { joinHeading, type SearchResult } from './searchResult.js';
import { walkNotes } from './walkNotes.js';

/**
 * `text` mode: a literal (case-insensitive) or, written as `/pattern/flags`, a regular expression,
 * matched line by line over the notes themselves (no index needed). One result per matching line,
 * in path and line order; the score is 1 (the line holds exactly what was asked).
 */
export async function textSearch(kilnRoot: string, rules: ScanRules, query: string, limit: number, signal?: AbortSignal): Promise<SearchResult[]> {
  const matches = lineMatcher(query);
  const results: SearchResult[] = [];
  await walkNotes(kilnRoot, rules, () => results.length >= limit, (note) => {
    if (!note.lines.some(matches)) return;
    let h = 0;
    const stack: { level: number; text: string }[] = [];
    note.lines.forEach((line, index) => {
      const lineNo = index + 1;
      while (h < note.headings.length && note.headings[h].line <= lineNo) {
        const heading = note.headings[h++];
        while (stack.length > 0 && stack[stack.length - 1].level >= heading.level) stack.pop();
        stack.push(heading);
      }
      if (results.length >= limit || !matches(line)) return;
      results.push({ path: note.path, title: note.title, heading: joinHeading(stack.map((s) => s.text)), startLine: lineNo, endLine: lineNo, score: 1, snippet: line.trim().slice(0, 200) });
    });
  }, signal);
  return results;
}

export class SearchQueryError extends HearthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('search.bad_query', message, options);
  }
}

function lineMatcher(query: string): (line: string) => boolean {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(query);
  if (regex) {
    let re: RegExp;
    try {
      re = new RegExp(regex[1], regex[2].replace(/[gy]/g, ''));
    } catch (error) {
      throw new SearchQueryError(`Not a valid regular expression: ${query} (${(error as Error).message})`, { cause: error });
    }
    return (line) => re.test(line);
  }
  const needle = query.toLowerCase();
  return (line) => line.toLowerCase().includes(needle);
}
