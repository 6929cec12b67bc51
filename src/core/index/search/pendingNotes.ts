/**
 * Notes an index run has read but not yet embedded. Until their new chunks are in the store, a
 * search would rank them by their old text (or miss them: at "172 of 300 notes" a word added to all
 * 300 found none of them). So a search during a run also matches these notes' new text on words
 * alone, and their stale rows give way to those matches.
 */
import { searchTerms } from '../words/tokenize';
import type { SearchResult } from './searchResult';
import { roundScore } from './searchResult';

/** A run's changed notes waiting for their embeddings, by kiln-relative path (their new text). */
export class PendingNotes {
  private readonly notes = new Map<string, string>();

  /** The run read these notes' new text; they are searched on words until written. */
  waiting(notes: readonly { path: string; text: string }[]): void {
    for (const { path, text } of notes) this.notes.set(path, text);
  }

  /** The note's new chunks are in the store: the store answers for it again. */
  written(path: string): void {
    this.notes.delete(path);
  }

  /** The run ended (done, cancelled or failed): nothing waits any more. */
  clear(): void {
    this.notes.clear();
  }

  get size(): number {
    return this.notes.size;
  }

  /**
   * `results` with the waiting notes' stale rows replaced by matches on their new words: a note's
   * relevance is the share of the query's words it holds (1: every word), its row the first line
   * holding one. A search during a very large first run scans at most MAX_SCANNED of them.
   */
  merge(results: SearchResult[], query: string, limit: number, snippetChars = 200): SearchResult[] {
    if (this.notes.size === 0) return results;
    const terms = [...new Set(searchTerms(query))];
    const kept = results.filter((r) => !this.notes.has(r.path));
    if (terms.length === 0) return kept;
    const found: SearchResult[] = [];
    let scanned = 0;
    for (const [path, text] of this.notes) {
      if (scanned++ >= MAX_SCANNED) break;
      const hit = matchNote(path, text, terms, snippetChars);
      if (hit) found.push(hit);
    }
    return [...kept, ...found].sort((a, b) => b.score - a.score).slice(0, limit);
  }
}

const MAX_SCANNED = 5_000;

function matchNote(path: string, text: string, terms: readonly string[], snippetChars: number): SearchResult | undefined {
  const words = new Set(searchTerms(text));
  const held = terms.filter((t) => words.has(t));
  if (held.length === 0) return undefined;
  const lines = text.split('\n');
  const index = Math.max(0, lines.findIndex((line) => searchTerms(line).some((t) => held.includes(t))));
  const title = path.split('/').pop()!.replace(/\.md$/i, '');
  return { path, title, heading: '', startLine: index + 1, endLine: index + 1, score: roundScore(held.length / terms.length), snippet: lines[index]!.trim().slice(0, snippetChars) };
}
