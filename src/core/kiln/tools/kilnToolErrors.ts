import { HearthError } from '../../errors';

/** Why a kiln tool refused or failed; tool callers see the message as an MCP tool error. */
export type KilnToolErrorCode =
  | 'invalid-arguments'
  | 'path-outside-kiln'
  | 'not-found'
  | 'exists'
  | 'not-a-note'
  | 'too-large'
  | 'index-unavailable'
  | 'declined';

export class KilnToolError extends HearthError {
  constructor(
    override readonly code: KilnToolErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
