/**
 * What the editor's index is doing: the one run state the IndexController keeps, which its status
 * item shows and the Semantic Search quick pick reads (the pick has no progress of its own). Free of
 * `vscode`, so the rules are unit-tested.
 */

/** Notes of the running index run embedded so far, of those it has to embed. */
export interface NotesProgress {
  done: number;
  total: number;
}

export type IndexState =
  | { kind: 'off'; reason: string }
  | { kind: 'unreachable'; message: string }
  /** `notes` is unknown while the kiln is scanned (and stays from the last count while a model downloads). */
  | { kind: 'indexing'; message?: string; notes?: NotesProgress }
  /**
   * `unfinished`: the last run over the whole kiln stopped part-way (cancelled, or failed and a
   * later run for a few saved notes succeeded), so the index lacks notes until a whole run ends.
   */
  | { kind: 'ready'; notes: number; chunks: number; unfinished?: 'cancelled' | 'failed' }
  | { kind: 'error'; message: string };

/**
 * The state after a progress report of the running run: the message is the latest one, the count
 * the latest count (a report without one, such as a model download's, keeps it).
 */
export function indexingState(previous: IndexState, update: { message?: string; done?: number; total?: number }): IndexState {
  const counted = update.done !== undefined && update.total !== undefined ? { done: update.done, total: update.total } : undefined;
  const kept = previous.kind === 'indexing' ? previous : undefined;
  return { kind: 'indexing', message: update.message ?? kept?.message, notes: counted ?? kept?.notes };
}

/**
 * Whether the index lacks notes after a run ended: only a run over the whole kiln can say (a run
 * for a few saved notes leaves the rest as they were, incomplete or not).
 */
export function unfinishedAfter(
  previous: 'cancelled' | 'failed' | undefined,
  run: { wholeKiln: boolean; outcome: 'done' | 'cancelled' | 'failed' },
): 'cancelled' | 'failed' | undefined {
  if (!run.wholeKiln) return previous;
  return run.outcome === 'done' ? undefined : run.outcome;
}

/** "120 of 557 notes", or nothing while the run is still counting. */
export function describeProgress(notes: NotesProgress | undefined): string | undefined {
  return notes && `${notes.done} of ${notes.total} note${notes.total === 1 ? '' : 's'}`;
}
