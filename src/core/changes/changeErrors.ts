import { HearthError } from '../errors';

export type ChangeErrorCode =
  | 'changes.not_found'
  | 'changes.conflict'
  | 'changes.journal_unwritable'
  | 'changes.nothing_to_undo'
  | 'changes.locked'
  | 'changes.rejected'
  | 'changes.declined';

/** A change-journal failure; `code` says which, the message what to do. */
export class ChangeError extends HearthError<ChangeErrorCode> {}
