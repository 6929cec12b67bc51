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

/** What undoing a set of changes would do, per file, and what stands in the way. */
export interface UndoPlan {
  records: ChangeRecord[];
  /** One step per file: restore `restore` (null: delete the file). */
  steps: { path: string; restore: Uint8Array | null; newest: ChangeRecord }[];
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

/**
 * Plans the undo of `records` (applied changes): per file, the newest change must still be what is
 * on disk, and the file goes back to what was there before the oldest one.
 */
export async function planUndo(journal: ChangeJournal, files: KilnFileAccess, records: readonly ChangeRecord[]): Promise<UndoPlan> {
  const applied = records.filter((record) => record.state === 'done');
  if (applied.length === 0) throw new ChangeError('changes.nothing_to_undo', 'These changes are not applied (already undone, or never written).');
  const byPath = new Map<string, ChangeRecord[]>();
  for (const record of applied) byPath.set(record.path, [...(byPath.get(record.path) ?? []), record]);
  const plan: UndoPlan = { records: applied, steps: [], conflicts: [] };
  for (const [path, chain] of byPath) {
    const newest = chain.at(-1)!;
    const oldest = chain[0];
    const current = await files.read(path);
    if ((current === null ? null : sha256(current)) !== newest.after) {
      plan.conflicts.push({ path, expected: await journal.content(newest, 'after'), current });
    }
    plan.steps.push({ path, restore: await journal.content(oldest, 'before'), newest });
  }
  return plan;
}

/**
 * Applies a plan: refuses when a file changed since (unless `force`), restores byte for byte, and
 * journals the restore itself (tool `undo`), so even an undo can be undone.
 */
export async function applyUndo(journal: ChangeJournal, files: KilnFileAccess, plan: UndoPlan, options: { force?: boolean; client?: string } = {}): Promise<string[]> {
  if (plan.conflicts.length > 0 && !options.force) throw new UndoConflictError(plan.conflicts);
  const turn = `undo-${plan.records[0].turn}`;
  const restored: string[] = [];
  for (const step of plan.steps) {
    const current = await files.read(step.path);
    await journal.record({ path: step.path, before: current, after: step.restore }, { turn, tool: 'undo', client: options.client }, () =>
      step.restore === null ? files.remove(step.path) : files.write(step.path, step.restore),
    );
    restored.push(step.path);
  }
  await journal.markUndone(plan.records.map((record) => record.id));
  return restored;
}
