/**
 * The seam between the catalog (internal agents, transcripts, default selection) and the ACP side
 * (discovery, profiles, spawning). The ACP code implements this; the catalog only combines.
 */
import type { AgentSessionInfo } from './agentControls';
import type { AgentDescriptor, AgentSession, AgentStartOptions } from './agentSession';

export interface ExternalAgents {
  /** Discovered agents and `[acp.agents.X]` profiles, each with `kind: 'external'` and availability. */
  list(): Promise<AgentDescriptor[]>;
  /** Spawns and initializes the named agent; throws a HearthError when it is unknown or unavailable. */
  start(name: string, options: AgentStartOptions): Promise<AgentSession>;
  /** The agent's own saved sessions in `cwd` (session/list), started just for the question. */
  listSessions?(name: string, cwd: string): Promise<AgentSessionInfo[]>;
  /** Closes one of the agent's saved sessions (session/close), started just for it; false when the agent offers no close. */
  closeSession?(name: string, cwd: string, sessionId: string): Promise<boolean>;
  /** Ends every session still running (on deactivate / CLI exit), so no process is left behind. */
  dispose?(): Promise<void>;
}
