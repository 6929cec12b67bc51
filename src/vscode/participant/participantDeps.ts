/**
 * What `@hearth` needs from the rest of the extension, and how it tells whether the index can
 * answer now (none, being built, failed) in words the reply can show.
 */
import type { AgentCatalog } from '../../core/agents/agentSession';
import type { Logger } from '../../core/host';
import type { KilnIndex } from '../../core/index/kilnIndex';
import type { SearchResult } from '../../core/index/search/searchResult';
import type { Redactor } from '../../core/logging/redactor';
import type { IndexState } from '../index/indexState';

export interface ParticipantDeps {
  kilnRoot(): string | undefined;
  workspaceRoot(): string | undefined;
  /** The open index (undefined: none) and what it is doing. */
  index(): KilnIndex | undefined;
  indexState(): IndexState | undefined;
  /** Settles once the newest configuration has opened its index (or knows there is none). */
  whenIndexOpened(): Promise<void>;
  /** `[chat].auto_context`. */
  autoContext(): boolean;
  catalog: AgentCatalog | undefined;
  /**
   * The kiln's related notes (the `related_notes` kiln tool: hybrid search of the note's title and
   * body, the note itself left out); absent where the tools are not built.
   */
  relatedNotes?(from: { path?: string; text?: string }, limit: number, signal: AbortSignal): Promise<SearchResult[]>;
  redactor: Redactor;
  log: Logger;
}

/** Why the index cannot answer a search now, or undefined when it can. */
export async function indexUnavailable(deps: ParticipantDeps): Promise<string | undefined> {
  const index = deps.index();
  const state = deps.indexState();
  const exists = index ? await index.exists().catch(() => false) : false;
  if (exists) return undefined;
  if (state?.kind === 'indexing') {
    const notes = state.notes ? ` (${state.notes.done} of ${state.notes.total} notes)` : '';
    return `the index is being built${notes}; ask again when it is ready`;
  }
  if (state?.kind === 'off') return `there is no index: ${state.reason}`;
  if (state?.kind === 'error' || state?.kind === 'unreachable') return `the index failed: ${state.message} (run "Hearth: Reindex")`;
  return 'there is no index yet (run "Hearth: Reindex")';
}
