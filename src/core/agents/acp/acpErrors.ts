import { HearthError } from '../../errors';

/**
 * Why an external (ACP) agent failed. Surfaces branch on the code (and show `remedy`); the message
 * names the agent so a user can tell which one to look at.
 */
export type AcpErrorCode =
  | 'acp.unknown_agent'
  | 'acp.unavailable'
  | 'acp.profile_invalid'
  | 'acp.spawn_failed'
  | 'acp.handshake_failed'
  | 'acp.agent_exited'
  | 'acp.prompt_failed'
  | 'acp.streaming_timeout'
  | 'acp.message_too_large'
  | 'acp.busy'
  | 'acp.disposed'
  | 'acp.path_outside_workspace'
  | 'acp.file_not_found'
  | 'acp.write_denied'
  | 'acp.unsupported'
  | 'acp.option_refused'
  | 'acp.auth_required'
  | 'acp.terminal_refused'
  | 'acp.terminal_unknown'
  /** `hearth acp`: an MCP server the client passed could not be used (it is left out of the session). */
  | 'acp.client_mcp_failed';

export class AcpError extends HearthError {
  constructor(
    override readonly code: AcpErrorCode,
    message: string,
    readonly remedy?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
