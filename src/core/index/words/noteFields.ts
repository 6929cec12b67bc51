import type { ChunkRecord } from '../store/vectorStore';
import { searchTerms } from './tokenize';

/** A note's fields, in the order of their columns in the postings. */
export const FIELDS = ['title', 'headings', 'lead', 'body'] as const;
export interface FieldParams {
  /** How much one occurrence in the field counts against one in the body. */
  weight: number;
  /** Length normalization (0: none, 1: full). */
  b: number;
}

/**
 * Tuned on the dev set (test/eval/dev.json): the title (and file name), heading path and opening
 * lines carry what a note is about (the opening lines alone moved top-1 from 0.90 to 0.92); a body
 * that repeats a word saturates (k1) and long bodies are normalized. The title's weight is high
 * enough that one title word outweighs a word repeated through a long body (the dev set itself is
 * indifferent between 4 and 12).
 */
export const DEFAULT_FIELDS: Record<(typeof FIELDS)[number], FieldParams> = {
  title: { weight: 10, b: 0.3 },
  headings: { weight: 1.5, b: 0.5 },
  lead: { weight: 2.5, b: 0.3 },
  body: { weight: 1, b: 0.75 },
};
/** Words of the body (after headings and link targets are dropped) that make its opening. */
const LEAD_WORDS = 60;

/**
 * A note's words per field, in FIELDS order: title (and file name, each word once), heading path,
 * opening (the first prose words: no headings, link targets, tags or URLs) and the whole body.
 */
export function noteFieldTerms(chunks: ChunkRecord[]): string[][] {
  const first = chunks[0];
  const stem = first.notePath.replace(/\.(md|markdown)$/i, '');
  // Title and file name often say the same: a word counts once in the field.
  const title = [...new Set([...searchTerms(first.title), ...searchTerms(stem)])];
  const headings = searchTerms([...new Set(chunks.flatMap((c) => c.headingPath))].join('\n'));
  const body = chunks.map((c) => c.text).join('\n');
  const prose = body
    .slice(0, LEAD_WORDS * 100)
    .split('\n')
    .filter((line) => !/^\s{0,3}#{1,6}\s/.test(line))
    .join('\n')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<[^>]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
  const lead = searchTerms(prose.slice(0, LEAD_WORDS * 12)).slice(0, LEAD_WORDS);
  return [title, headings, lead, searchTerms(body)];
}
