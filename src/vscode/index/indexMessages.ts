/**
 * What the editor's index says to the user: its status item, "Hearth: Check Index" (what the index
 * holds, with what it was embedded, and whether a run is under way, with its count when known), and
 * what a run did. Free of `vscode`, so the wording is unit-tested.
 */
import type { IndexReport } from '../../core/index/indexer';
import { describeProgress, type IndexState } from './indexState';

export interface CheckIndexFacts {
  notes: number;
  chunks: number;
  providerType: string;
  model: string;
  /** The vectors' length, as the index holds them. */
  dimensions?: number;
}

/** `empty`: the index holds nothing yet (the notification then offers Reindex). */
export function checkIndexMessage(facts: CheckIndexFacts, state: IndexState): { text: string; empty: boolean } {
  const progress = state.kind === 'indexing' ? describeProgress(state.notes) : undefined;
  const running = state.kind === 'indexing' ? ` (indexing now${progress ? `: ${progress}` : ''})` : '';
  if (facts.notes === 0) return { text: `Hearth: the index is empty${running}. Build it with "Hearth: Reindex".`, empty: true };
  const { notes, chunks } = facts;
  return {
    text: `Hearth: the index holds ${notes} note${notes === 1 ? '' : 's'} (${chunks} chunk${chunks === 1 ? '' : 's'})${running}, embedded with ${facts.providerType} / ${facts.model}${facts.dimensions ? ` (${facts.dimensions} dimensions)` : ''}. Search it with "Hearth: Semantic Search"; in the chat, Search notes attaches hits.`,
    empty: false,
  };
}

/** What a run did, in one line: "nothing changed (3 notes)" or "embedded 4 chunks of 2 notes, 1 removed (3 notes, 0.4 s)". */
export function describeRun(report: IndexReport): string {
  const parts: string[] = [];
  if (report.embeddedNotes > 0) parts.push(`embedded ${report.embedded} chunk${report.embedded === 1 ? '' : 's'} of ${report.embeddedNotes} note${report.embeddedNotes === 1 ? '' : 's'}`);
  if (report.removed > 0) parts.push(`${report.removed} removed`);
  if (report.skipped.length > 0) parts.push(`${report.skipped.length} skipped`);
  const total = `${report.notes} note${report.notes === 1 ? '' : 's'}, ${report.seconds.toFixed(1)} s`;
  if (report.cancelled) return `indexing cancelled; ${parts.join(', ') || 'nothing embedded'} (${total}).`;
  return parts.length === 0 ? `the index is up to date; nothing to embed (${total}).` : `${parts.join(', ')} (${total}).`;
}

/** The status item's text and tooltip for a state; `warning` colours it. */
export function statusItemText(s: IndexState): { text: string; tooltip: string; warning: boolean } {
  switch (s.kind) {
    case 'off':
      return { text: '$(database) Index: off', tooltip: `Hearth index: ${s.reason}`, warning: false };
    case 'indexing':
      return { text: `$(sync~spin) Indexing${s.message || s.notes ? ` ${s.message ?? describeProgress(s.notes)}` : ''}`, tooltip: 'Hearth is indexing the kiln', warning: false };
    case 'ready': {
      const unfinished = s.unfinished ? ` (incomplete: the last indexing ${s.unfinished === 'cancelled' ? 'was cancelled' : 'failed'}; "Hearth: Reindex" finishes it)` : '';
      return { text: `$(database) ${s.notes} notes`, tooltip: `Hearth index: ${s.notes} notes, ${s.chunks} chunks${unfinished}. Click to search.`, warning: false };
    }
    case 'unreachable':
      return { text: '$(debug-disconnect) Index unreachable', tooltip: `Hearth index: ${s.message}`, warning: true };
    case 'error':
      return { text: '$(warning) Index failed', tooltip: `Hearth index: ${s.message} (see Hearth: Show Log)`, warning: true };
  }
}
