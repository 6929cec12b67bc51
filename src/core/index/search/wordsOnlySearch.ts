/**
 * Search while the embedding model cannot answer (offline before it was ever fetched, a local
 * runner that is not running): the kiln's notes on disk matched on the query's words alone, so a
 * first start without the model still finds notes. A note's relevance is the share of the query's
 * words it holds, its row the first line holding one (PendingNotes' matching, over every note).
 * Hosts label these results "words only" (KilnIndex.wordsOnly says why).
 */
import { isHearthError } from '../../errors';
import type { ScanRules } from '../../kiln/kilnScanner';
import { walkNotes } from '../../kiln/walkNotes';
import { PendingNotes } from './pendingNotes';
import type { SearchResult } from './searchResult';

/** The embedder failures search answers on words through: the model or its runner cannot be reached. */
const WORDS_ONLY_CODES: ReadonlySet<string> = new Set(['embedding.model_unavailable', 'embedding.model_missing', 'embedding.runner_unreachable']);

/** Whether a hybrid or semantic search that failed with `error` answers on words instead. */
export function answersOnWords(error: unknown): boolean {
  return isHearthError(error) && WORDS_ONLY_CODES.has(error.code);
}

export async function wordsOnlySearch(kilnRoot: string, rules: ScanRules, query: string, limit: number, snippetChars?: number, signal?: AbortSignal): Promise<SearchResult[]> {
  const notes = new PendingNotes();
  await walkNotes(kilnRoot, rules, () => false, (note) => notes.waiting([{ path: note.path, text: note.lines.join('\n') }]), signal);
  return notes.merge([], query, limit, snippetChars);
}
