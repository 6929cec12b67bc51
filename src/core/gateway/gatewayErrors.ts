import { HearthError } from '../errors';

/**
 * Why a gateway operation failed. Hosts and tests branch on these codes; the messages name the
 * upstream (and the tool, where there is one) so a user can tell which server to look at.
 */
export type GatewayErrorCode =
  | 'gateway.upstream_down'
  | 'gateway.upstream_timeout'
  | 'gateway.upstream_spawn'
  | 'gateway.upstream_handshake'
  | 'gateway.upstream_call'
  /** An OAuth upstream has no usable token: the user signs in (`hearth mcp login NAME`, or the editor's action). */
  | 'gateway.upstream_sign_in'
  /** The sign-in itself failed (the authorization server refused, answered for another resource, timed out). */
  | 'gateway.oauth_failed'
  | 'gateway.unknown_tool'
  | 'gateway.unknown_upstream'
  | 'gateway.stopped';

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
