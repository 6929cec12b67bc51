import { isAbsolute, join, relative, sep } from 'node:path';
import type { ChangeJournal } from './changeJournal';
import type { ChangeReviewer, ReviewPolicy } from './changeReview';

/**
 * What an external (ACP) agent's file writes in its workspace go through: the reviewer and
 * `[chat].review_edits`, and the kiln's change journal for the files inside the kiln.
 */
export interface WorkspaceEdits {
  reviewer?: ChangeReviewer;
  reviewEdits: ReviewPolicy;
  journal?: ChangeJournal;
  /** The kiln the journal belongs to (absolute); files outside it are reviewed but not journaled. */
  kilnRoot?: string;
}

/** The kiln-relative path of a workspace-relative one, or undefined when it lies outside the kiln. */
export function kilnRelative(edits: WorkspaceEdits, workspaceRoot: string, path: string): string | undefined {
  if (!edits.kilnRoot) return undefined;
  const rel = relative(edits.kilnRoot, join(workspaceRoot, path));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}
