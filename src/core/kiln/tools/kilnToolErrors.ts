import { HearthError } from '../../errors';

/** Why a kiln tool refused or failed; tool callers see the message as an MCP tool error. */
export type KilnToolErrorCode =
  | 'kiln.invalid_arguments'
  | 'kiln.path_outside_kiln'
  | 'kiln.not_found'
  | 'kiln.exists'
  | 'kiln.not_a_note'
  | 'kiln.too_large'
  | 'kiln.index_unavailable'
  | 'kiln.declined'
  | 'kiln.edit_no_match'
  | 'kiln.edit_ambiguous';

export class KilnToolError extends HearthError<KilnToolErrorCode> {}
