import { HearthError } from '../../errors';

/**
 * Why an external (ACP) agent failed. Surfaces branch on the code (and show `remedy`); the message
 * names the agent so a user can tell which one to look at.
 */
export type AcpErrorCode =
  | 'acp.unknown-agent'
  | 'acp.unavailable'
  | 'acp.profile-invalid'
  | 'acp.spawn-failed'
  | 'acp.handshake-failed'
  | 'acp.agent-exited'
  | 'acp.prompt-failed'
  | 'acp.streaming-timeout'
  | 'acp.message-too-large'
  | 'acp.busy'
  | 'acp.disposed'
  | 'acp.path-outside-workspace'
  | 'acp.file-not-found'
  | 'acp.write-denied';

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
