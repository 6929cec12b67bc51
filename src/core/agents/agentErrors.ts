import { HearthError } from '../errors';

/** Why starting or running an agent failed; surfaces branch on these codes. */
export type AgentErrorCode =
  /** No internal card or external agent has this name. */
  | 'agent.unknown'
  /** An external agent exists but cannot run here (not installed, no ACP side). */
  | 'agent.unavailable'
  /** A prompt was sent while the previous turn of the same session was still running. */
  | 'agent.busy'
  /** The session was disposed. */
  | 'agent.disposed';

export class AgentError extends HearthError<AgentErrorCode> {}
