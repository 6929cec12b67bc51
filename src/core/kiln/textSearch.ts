import type { RE2JS } from 're2js';
import type { ConfinedRoot } from '../fs/confinedRoot';
import { HearthError } from '../errors';
import type { ScannedNote } from './kilnScanner';
import { walkNotes, type WalkScope } from './walkNotes';

/** One line of a note that matches a text query. */
export interface LineMatch {
  /** Kiln-relative note path, forward slashes. */
  path: string;
  title: string;
  /** Headings the line sits under, outermost first. */
  headingPath: string[];
  /** 1-based. */
  line: number;
  /** The line as in the note (untrimmed). */
  text: string;
}

/**
 * The one text search over the notes themselves (no index needed), for `hearth search --mode text`,
 * the editor and the `text_search` tool: a literal (case-insensitive) or, written as
 * `/pattern/flags`, a regular expression, matched line by line. Matches come in path and line
 * order, at most `limit`. Patterns run on re2js (linear time), so a model's tool call can use them too.
 * `mayMatch` (the index's word prefilter) leaves out notes it knows hold no match, unread.
 */
export async function textSearch(
  kiln: ConfinedRoot | string, scope: WalkScope, query: string, limit: number, signal?: AbortSignal, mayMatch?: (note: ScannedNote) => boolean,
): Promise<LineMatch[]> {
  const matches = await lineMatcher(query);
  const results: LineMatch[] = [];
  await walkNotes(kiln, scope, () => results.length >= limit, (note) => {
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
      results.push({ path: note.path, title: note.title, headingPath: stack.map((s) => s.text), line: lineNo, text: line });
    });
  }, signal, mayMatch);
  return results;
}

/** A text query written `/pattern/flags`: a regular expression, not words. */
const PATTERN = /^\/(.+)\/([a-z]*)$/s;

export function isPatternQuery(query: string): boolean {
  return PATTERN.test(query);
}

export class SearchQueryError extends HearthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('search.bad_query', message, options);
  }
}

/**
 * `/pattern/flags` runs on RE2JS, a linear-time engine: no pattern a user or an agent writes can
 * backtrack for minutes (`/(a+)+$/` on a long line of `a` stalled the process). The price is the
 * features that need backtracking — backreferences and lookaround — which are refused with a clear
 * error. Flags i, s, m apply; g, y, u, d change nothing for a line test.
 */
async function lineMatcher(query: string): Promise<(line: string) => boolean> {
  const regex = PATTERN.exec(query);
  if (regex) {
    // Loaded with the first regex query, not with the extension.
    const { RE2JS } = await import('re2js');
    const REGEX_FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, s: RE2JS.DOTALL, m: RE2JS.MULTILINE };
    let flags = 0;
    for (const flag of regex[2]) {
      if (REGEX_FLAGS[flag] !== undefined) flags |= REGEX_FLAGS[flag];
      else if (!'gyud'.includes(flag)) throw new SearchQueryError(`Not a valid regular expression: ${query} (unknown flag "${flag}")`);
    }
    let re: RE2JS;
    try {
      re = RE2JS.compile(RE2JS.translateRegExp(regex[1]), flags);
    } catch (error) {
      const why = (error as Error).message.replace(/^error parsing regexp: /, '');
      throw new SearchQueryError(`Not a valid regular expression: ${query} (${why}; backreferences and lookaround are not supported, the engine is linear-time)`, { cause: error });
    }
    return (line) => re.test(line);
  }
  return literalMatcher(query);
}

/** A literal query's line test: case-insensitive, anywhere in the line. */
export function literalMatcher(query: string): (line: string) => boolean {
  const needle = query.toLowerCase();
  return (line) => line.toLowerCase().includes(needle);
}
