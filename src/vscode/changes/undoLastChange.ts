/**
 * "Hearth: Undo Last Agent Change": reverts the newest agent turn from the change journal (it
 * survives a reload), byte for byte. A note changed since is not overwritten silently: its
 * difference is shown and the user decides. A protected path gets its own modal every time, even
 * with confirm_destructive off (the journal's file access asks through the host), and a note saved
 * while a question is open is a conflict, not overwritten.
 */
import * as vscode from 'vscode';
import type { ChangeJournal } from '../../core/changes/changeJournal';
import type { KilnFileAccess } from '../../core/changes/kilnFileAccess';
import { applyUndo, newestTurn, planUndo } from '../../core/changes/undoChanges';
import { describeError, isHearthError } from '../../core/errors';
import type { Logger } from '../../core/host';
import type { ChangeSnapshots } from './changeSnapshots';

export const UNDO_LAST_AGENT_CHANGE_COMMAND = 'hearth.undoLastAgentChange';

export interface UndoDeps {
  /** The kiln's journal and confined file access; undefined without a workspace. */
  journal(): { journal: ChangeJournal; files: KilnFileAccess } | undefined;
  snapshots: ChangeSnapshots;
  confirmDestructive(): boolean;
  /** After an undo (from the palette too): whatever shows the newest undoable turn (the chat's Undo chip) reads it again. */
  changed?(): void;
  log: Logger;
}

export async function undoLastAgentChange(deps: UndoDeps): Promise<void> {
  const target = deps.journal();
  if (!target) {
    void vscode.window.showInformationMessage('Open a folder with notes to undo agent changes.');
    return;
  }
  const { journal, files } = target;
  try {
    const records = newestTurn(await journal.list());
    const plan = await planUndo(journal, files, records);
    const who = records[0].agent ?? records[0].client ?? 'an agent';
    const paths = plan.steps.map((step) => step.path).join(', ');
    let force = false;
    if (plan.conflicts.length > 0) {
      const conflict = plan.conflicts[0];
      const left = deps.snapshots.put(conflict.path, conflict.expected);
      const right = deps.snapshots.put(conflict.path, conflict.current);
      await vscode.commands.executeCommand('vscode.diff', left, right, `${conflict.path}: ${who}'s version ↔ now`);
      const answer = await vscode.window.showWarningMessage(
        `${plan.conflicts.map((c) => c.path).join(', ')} changed after ${who}'s change. Undo anyway and lose those edits?`,
        { modal: true, detail: 'The diff shows what would be lost (left: what the agent left, right: what is there now).' },
        'Undo Anyway',
      );
      deps.snapshots.drop(left, right);
      if (answer !== 'Undo Anyway') return;
      force = true;
    } else if (deps.confirmDestructive()) {
      const answer = await vscode.window.showWarningMessage(`Undo ${who}'s last change (${paths})?`, { modal: true }, 'Undo');
      if (answer !== 'Undo') return;
    }
    const restored = await applyUndo(journal, files, plan, { force, client: 'editor' }).finally(() => deps.changed?.());
    void vscode.window.showInformationMessage(`Hearth: undid ${who}'s last change: ${restored.join(', ')}`);
  } catch (error) {
    // Nothing to undo is an answer, not a failure: no warning in the log for it.
    if (isHearthError(error) && error.code === 'changes.nothing_to_undo') {
      void vscode.window.showInformationMessage('Hearth: there is no agent change to undo.');
      return;
    }
    // A "no" to a protected path, or a note saved while a question was open: nothing was lost, say so plainly.
    if (isHearthError(error) && (error.code === 'fs.protected_declined' || error.code === 'changes.conflict')) {
      void vscode.window.showWarningMessage(`Hearth: not undone. ${error.message}`);
      return;
    }
    deps.log.child('changes').warn(`undo failed: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`Hearth: undo failed: ${describeError(error)}`);
  }
}
