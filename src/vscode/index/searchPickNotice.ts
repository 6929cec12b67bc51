/**
 * What the Semantic Search quick pick says about the index beside its results. While a run is
 * under way the index answers from the notes embedded so far: the pick says so (its title, and a
 * row above the results, the best hit still the active one), so a note not indexed yet does not look like a note that does not exist.
 * An empty index offers "Reindex now" — unless a build is already running, which it then reports
 * instead of starting a second one. A run that stopped part-way (cancelled or failed) leaves the
 * index incomplete: the pick says that too, with Reindex to finish it. Free of `vscode`, so the rules are unit-tested.
 */
import { describeProgress, type IndexState } from './indexState';

/** Where the pick stands: no query typed, no note in the index, no hit for the query, or hits. */
export type SearchSituation = 'no-query' | 'empty-index' | 'no-hits' | 'hits';

/** A row that is not a note: `reindex` runs "Hearth: Reindex" on accept; `status` only informs (accepting it does nothing). */
export interface NoticeRow {
  action: 'reindex' | 'status';
  label: string;
  description?: string;
}

export const SEARCH_TITLE = 'Hearth: Semantic Search';

/** The pick's title and placeholder: both say that the index is incomplete while a run is under way, or that search matches words only. */
export function searchPickHeader(state: IndexState, wordsOnly?: string): { title: string; placeholder: string } {
  if (wordsOnly !== undefined) return { title: `${SEARCH_TITLE} (words only)`, placeholder: 'Search the notes by their words (the embedding model is not available)' };
  if (isUnfinished(state)) return { title: `${SEARCH_TITLE} (the index is incomplete)`, placeholder: 'Search the notes indexed so far by words and meaning' };
  if (state.kind !== 'indexing') return { title: SEARCH_TITLE, placeholder: 'Search the notes by words and meaning' };
  return { title: `${SEARCH_TITLE} (${indexingText(state)})`, placeholder: 'Search the notes indexed so far by words and meaning' };
}

/**
 * The row to show for this situation (above the hits, or as the only row), if any. `wordsOnly`: why
 * the index answered on the notes' words alone (KilnIndex.wordsOnly: the model's error and its remedy).
 */
export function searchPickNotice(state: IndexState, situation: SearchSituation, wordsOnly?: string): NoticeRow | undefined {
  if (wordsOnly !== undefined && situation !== 'no-query') return { action: 'status', label: '$(warning) Words only: the embedding model is not available', description: wordsOnly };
  if (situation === 'empty-index' && state.kind !== 'indexing') return { action: 'reindex', label: '$(sync) Reindex now', description: 'the index is empty: build it to search the notes' };
  // A run that stopped part-way (cancelled, or failed: a hosted embedder down mid-build) left the
  // notes it had embedded: searchable, but not the whole kiln. Reindex embeds only the rest.
  if (state.kind === 'ready' && state.unfinished) {
    const what = state.unfinished === 'cancelled' ? 'Indexing was cancelled' : 'The last indexing failed';
    return { action: 'reindex', label: `$(sync) ${what} — results may be incomplete`, description: 'Reindex embeds only the notes still missing' };
  }
  if (state.kind === 'error') return { action: 'reindex', label: '$(warning) The last index run failed — results may be incomplete', description: state.message };
  if (state.kind !== 'indexing') return undefined;
  const progress = describeProgress(state.notes);
  switch (situation) {
    case 'empty-index':
      return { action: 'status', label: `$(sync~spin) ${indexingText(state)}`, description: 'nothing to search yet; hits appear as notes are indexed' };
    case 'no-hits':
      return { action: 'status', label: '$(sync~spin) No match in the notes indexed so far', description: `indexing${progress ? ` ${progress}` : ''} — the note may not be indexed yet` };
    case 'no-query':
    case 'hits':
      return { action: 'status', label: `$(sync~spin) ${indexingText(state)} — results may be incomplete` };
  }
}

function isUnfinished(state: IndexState): boolean {
  return (state.kind === 'ready' && state.unfinished !== undefined) || state.kind === 'error';
}

function indexingText(state: Extract<IndexState, { kind: 'indexing' }>): string {
  const progress = describeProgress(state.notes);
  return progress ? `Indexing… ${progress}` : 'Indexing…';
}
