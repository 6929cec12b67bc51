/**
 * What `@hearth`'s commands (`/search`, `/related`, `/agent`) read from a request and show, free of
 * `vscode`: note-level search results as lines (each opens the note at its best section), the query
 * `/related` searches with, and the agent name and task of `/agent`.
 */
import type { SearchResult } from '../../index/search/searchResult';

export type ParticipantCommand = 'search' | 'related' | 'agent';
export const PARTICIPANT_COMMANDS: readonly ParticipantCommand[] = ['search', 'related', 'agent'];

/** Results a command lists at most. */
export const PARTICIPANT_RESULTS = 10;
/** Characters of the open note (or selection) `/related` searches with. */
export const RELATED_QUERY_CHARS = 2_000;

export interface ResultLine {
  path: string;
  /** Where the note opens: its best section. */
  line: number;
  endLine: number;
  /** What the line says after the link: the section's heading and the relevance. */
  detail: string;
  snippet: string;
}

/** One line per note, best first (a note's other sections stay in the index's result). */
export function resultLines(results: readonly SearchResult[], limit = PARTICIPANT_RESULTS): ResultLine[] {
  return results.slice(0, limit).map((r) => ({
    path: r.path,
    line: r.startLine,
    endLine: r.endLine,
    detail: [r.heading ? `§ ${r.heading}` : '', `relevance ${r.score.toFixed(2)}`].filter(Boolean).join(' · '),
    snippet: r.snippet.replace(/\s+/g, ' ').trim().slice(0, 200),
  }));
}

/**
 * The text `/related` searches with: the selection if there is one, else the note; frontmatter
 * and markup left out, cut at RELATED_QUERY_CHARS (a search of a whole long note would be slow and
 * no better). Undefined when nothing is left to search with.
 */
export function relatedQuery(text: string, extra = ''): string | undefined {
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '').replace(/[#>*_`[\]|-]+/g, ' ').replace(/\s+/g, ' ').trim();
  const query = `${extra} ${body}`.trim().slice(0, RELATED_QUERY_CHARS);
  return query ? query : undefined;
}

/** `/agent NAME TASK…` → the agent and its task; a missing name or task is undefined (the reply lists the agents). */
export function parseAgentCommand(prompt: string): { name: string; task: string } | undefined {
  const match = /^\s*(\S+)\s+([\s\S]*\S)\s*$/.exec(prompt);
  return match ? { name: match[1]!, task: match[2]! } : undefined;
}
