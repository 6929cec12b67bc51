import type { AcpConfig } from '../../config/schema';

/** The `[acp]` limits in the units the code runs on; tests pass milliseconds directly. */
export interface AcpLimits {
  /** An idle session's process is stopped after this long without a turn. */
  sessionIdleMs: number;
  /** A turn with no message from the agent for this long is cancelled and reported. */
  streamingIdleMs: number;
  /** One message (one NDJSON line) from the agent may be at most this large. */
  maxMessageBytes: number;
  /** initialize + session/new must finish within this. */
  startTimeoutMs: number;
  /** After session/cancel, how long the agent gets to end the turn before its process is restarted. */
  cancelGraceMs: number;
  /** PATH probing, per agent. */
  probeTimeoutMs: number;
}

const MINUTE = 60_000;

export function limitsFromConfig(config: Pick<AcpConfig, 'session_timeout_minutes' | 'streaming_timeout_minutes' | 'max_message_size_mb'>): AcpLimits {
  return {
    sessionIdleMs: config.session_timeout_minutes * MINUTE,
    streamingIdleMs: config.streaming_timeout_minutes * MINUTE,
    maxMessageBytes: config.max_message_size_mb * 1024 * 1024,
    startTimeoutMs: 60_000,
    cancelGraceMs: 5_000,
    probeTimeoutMs: 2_000,
  };
}
