import type { ChangeJournal } from './changeJournal';
import type { ChangeRecord } from './changeRecord';
import { ChangeError } from './changeErrors';
import { sha256 } from './journalFiles';
import type { KilnFileAccess } from './kilnFileAccess';

/** A file whose content is no longer what the change left: undo would lose someone's edit. */
export interface UndoConflict {
  path: string;
  /** What the change left (null: it deleted the file). */
  expected: Uint8Array | null;
  /** What is there now (null: absent). */
  current: Uint8Array | null;
}

/** One file of an undo. */
export interface UndoStep {
  path: string;
  /** What the file goes back to (null: delete it). */
  restore: Uint8Array | null;
  /** What was there when the plan was made: the write goes ahead only if it still is. */
  seen: Uint8Array | null;
  newest: ChangeRecord;
  /** The records of this file the undo reverts, marked undone as soon as the file is restored. */
  records: ChangeRecord[];
  /** Already at `restore` (an undo interrupted after this file): nothing to write. */
  done: boolean;
}

/** What undoing a set of changes would do, per file, and what stands in the way. */
export interface UndoPlan {
  records: ChangeRecord[];
  steps: UndoStep[];
  conflicts: UndoConflict[];
}

export class UndoConflictError extends ChangeError {
  constructor(readonly conflicts: UndoConflict[]) {
    super('changes.conflict', `Not undone: ${conflicts.map((conflict) => conflict.path).join(', ')} changed after the agent's change. Nothing was overwritten; use --force to restore anyway.`);
  }
}

/** The records an undo of the newest turn reverts: applied agent changes, never an undo itself. */
export function newestTurn(records: readonly ChangeRecord[]): ChangeRecord[] {
  const candidates = records.filter((record) => record.state === 'done' && record.tool !== 'undo');
  const newest = candidates.at(-1);
  if (!newest) throw new ChangeError('changes.nothing_to_undo', 'There is no agent change to undo.');
  return candidates.filter((record) => record.turn === newest.turn);
}

const hashOf = (bytes: Uint8Array | null) => (bytes === null ? null : sha256(bytes));

/**
 * Plans the undo of `records` (applied changes): per file, the newest change must still be what is
 * on disk, and the file goes back to what was there before the oldest one. A file already back
 * there counts as done: an undo killed half-way is finished by running it again, without --force.
 */
export async function planUndo(journal: ChangeJournal, files: KilnFileAccess, records: readonly ChangeRecord[]): Promise<UndoPlan> {
  const applied = records.filter((record) => record.state === 'done');
  if (applied.length === 0) throw new ChangeError('changes.nothing_to_undo', 'These changes are not applied (already undone, or never written).');
  const byPath = new Map<string, ChangeRecord[]>();
  for (const record of applied) byPath.set(record.path, [...(byPath.get(record.path) ?? []), record]);
  const plan: UndoPlan = { records: applied, steps: [], conflicts: [] };
  for (const [path, chain] of byPath) {
    const newest = chain.at(-1)!;
    const current = await files.read(path);
    const restore = await journal.content(chain[0], 'before');
    const done = hashOf(current) === hashOf(restore);
    if (!done && hashOf(current) !== newest.after) plan.conflicts.push({ path, expected: await journal.content(newest, 'after'), current });
    plan.steps.push({ path, restore, seen: current, newest, records: chain, done });
  }
  return plan;
}

/**
 * Applies a plan: refuses when a file changed since (unless `force`); asks for every protected path
 * first (always, refused where nobody can be asked); then per file restores byte for byte — only if
 * the file is still what the plan saw (a save while the question was open is a conflict) — journals
 * the restore (tool `undo`, so even an undo can be undone) and marks that file's records undone.
 */
export async function applyUndo(journal: ChangeJournal, files: KilnFileAccess, plan: UndoPlan, options: { force?: boolean; client?: string } = {}): Promise<string[]> {
  if (plan.conflicts.length > 0 && !options.force) throw new UndoConflictError(plan.conflicts);
  const turn = `undo-${plan.records[0].turn}`;
  const who = plan.records[0].agent ?? plan.records[0].client ?? 'an agent';
  const pending = plan.steps.filter((step) => !step.done);
  for (const step of pending) {
    await files.confirmProtected(step.path, step.restore === null ? 'delete' : step.seen === null ? 'create' : 'change', `Undo of ${who}'s change`);
  }
  const restored: string[] = [];
  for (const step of plan.steps) {
    if (!step.done) {
      try {
        await journal.record({ path: step.path, before: step.seen, after: step.restore }, { turn, tool: 'undo', client: options.client }, () =>
          step.restore === null ? files.remove(step.path) : files.write(step.path, step.restore),
        );
      } catch (error) {
        if (!(error instanceof ChangeError && error.code === 'changes.conflict')) throw error;
        const done = restored.length > 0 ? ` Already undone: ${restored.join(', ')}.` : '';
        throw new ChangeError('changes.conflict', `Not undone: ${step.path} changed while the undo waited (saved by you or another program); it was not overwritten.${done} Run the undo again to see the difference.`, { cause: error });
      }
    }
    await journal.markUndone(step.records.map((record) => record.id));
    restored.push(step.path);
  }
  return restored;
}
