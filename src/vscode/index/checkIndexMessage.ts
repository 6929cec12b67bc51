/**
 * What "Hearth: Check Index" says: what the index holds, with what it was embedded, and whether a
 * run is under way (with its count when known). Free of `vscode`, so the wording is unit-tested.
 */
import { describeProgress, type IndexState } from './indexState';

export interface CheckIndexFacts {
  notes: number;
  chunks: number;
  providerType: string;
  model: string;
}

/** `empty`: the index holds nothing yet (the notification then offers Reindex). */
export function checkIndexMessage(facts: CheckIndexFacts, state: IndexState): { text: string; empty: boolean } {
  const progress = state.kind === 'indexing' ? describeProgress(state.notes) : undefined;
  const running = state.kind === 'indexing' ? ` (indexing now${progress ? `: ${progress}` : ''})` : '';
  if (facts.notes === 0) return { text: `Hearth: the index is empty${running}. Build it with "Hearth: Reindex".`, empty: true };
  const { notes, chunks } = facts;
  return {
    text: `Hearth: the index holds ${notes} note${notes === 1 ? '' : 's'} (${chunks} chunk${chunks === 1 ? '' : 's'})${running}, embedded with ${facts.providerType} / ${facts.model}. Search it with "Hearth: Semantic Search"; in the chat, Search notes attaches hits.`,
    empty: false,
  };
}
