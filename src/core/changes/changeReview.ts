import type { ChangeJournal, FileChange } from './changeJournal';
import { changeKind, type ChangeActor, type ChangeKind } from './changeRecord';
import { ChangeError } from './changeErrors';

/** `[chat].review_edits`. */
export type ReviewPolicy = 'always' | 'destructive' | 'never';

/** A change waiting for the user's decision, as a reviewer shows it. */
export interface ChangeProposal {
  path: string;
  kind: ChangeKind;
  before: Uint8Array | null;
  after: Uint8Array | null;
  actor: ChangeActor;
}

export interface ReviewOutcome {
  accepted: boolean;
  /** The user's reason for a rejection, handed to the agent so it can adapt. */
  reason?: string;
}

/**
 * Shows a proposed change and resolves with the user's decision: the editor opens a diff with
 * Accept / Reject, the CLI prints a unified diff and asks on the terminal. A reviewer that cannot ask
 * rejects; an aborted signal is a rejection too.
 */
export interface ChangeReviewer {
  review(proposal: ChangeProposal, signal?: AbortSignal): Promise<ReviewOutcome>;
}

/** `destructive`: deletes and overwrites of existing notes; a new note goes through unreviewed. */
export function needsReview(policy: ReviewPolicy, kind: ChangeKind): boolean {
  return policy === 'always' || (policy === 'destructive' && kind !== 'create');
}

export class ChangeRejectedError extends ChangeError {
  constructor(path: string, reason?: string) {
    super('changes.rejected', `The user rejected the change to ${path}${reason ? `: ${reason}` : ''}. The note was not changed; do not retry the same edit — ask the user or try something else.`);
  }
}

/** Everything deciding whether and how one write goes ahead. */
export interface EditPolicy {
  journal?: ChangeJournal;
  reviewer?: ChangeReviewer;
  reviewEdits: ReviewPolicy;
  /** `[cli].confirm_destructive` with the host's yes/no question; guards deletes and overwrites that are not reviewed. */
  confirmDestructive: boolean;
  confirm(message: string, detail: string): Promise<boolean>;
  /** What the questions call the file: a kiln tool writes a `note`, an ACP agent any `file`. */
  noun?: 'note' | 'file';
}

/**
 * One write on an agent's or client's behalf: reviewed (one question: the diff) or, when the policy
 * does not review it, confirmed as before for deletes and overwrites; then journaled and applied.
 */
export async function applyReviewedChange(policy: EditPolicy, change: FileChange, actor: ChangeActor, apply: () => Promise<void>, signal?: AbortSignal): Promise<void> {
  const kind = changeKind(change.before, change.after);
  if (policy.reviewer && needsReview(policy.reviewEdits, kind)) {
    const outcome = await policy.reviewer.review({ ...change, kind, actor }, signal);
    if (!outcome.accepted) throw new ChangeRejectedError(change.path, outcome.reason);
  } else if (kind !== 'create' && policy.confirmDestructive) {
    const noun = policy.noun ?? 'note';
    const question = kind === 'delete' ? `Delete the ${noun} "${change.path}"?` : `Overwrite the ${noun} "${change.path}"?`;
    const detail = `${actor.agent ?? actor.client ?? 'A tool'} asked to ${kind === 'delete' ? 'delete' : 'change'} this ${noun} (undo: "Hearth: Undo Last Agent Change" or \`hearth undo\`).`;
    if (!(await policy.confirm(question, detail))) throw new ChangeError('changes.declined', `The user declined: ${question}`);
  }
  if (policy.journal) await policy.journal.record(change, actor, apply);
  else await apply();
}
