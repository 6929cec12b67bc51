import { HearthError } from '../errors';

/**
 * Why a gateway operation failed. Hosts and tests branch on these codes; the messages name the
 * upstream (and the tool, where there is one) so a user can tell which server to look at.
 */
export type GatewayErrorCode =
  | 'upstream-down'
  | 'upstream-timeout'
  | 'upstream-spawn'
  | 'upstream-handshake'
  | 'upstream-call'
  | 'unknown-tool'
  | 'unknown-upstream'
  | 'gateway-stopped';

export class GatewayError extends HearthError {
  constructor(
    override readonly code: GatewayErrorCode,
    message: string,
    readonly upstream?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
