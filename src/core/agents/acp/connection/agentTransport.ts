import type { Readable, Writable } from 'node:stream';

/** How an agent ended: a process's exit code or signal; an in-process peer reports the same shape. */
export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What starting an agent needs: its profile's command line, environment and workspace. */
export interface AgentLaunch {
  command: string;
  args: string[];
  /** The complete environment of the agent. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Each line of the agent's diagnostic output (a process's stderr). */
  onStderrLine?: (line: string) => void;
}

/**
 * One running agent as the ACP client sees it: two byte streams carrying newline-delimited JSON-RPC
 * and a life that can end. The seam is at the bytes, not at parsed messages, so the bounded line
 * reader (max_message_size_mb, malformed lines) runs the same for every peer.
 */
export interface AgentChannel {
  /** What the agent writes (its stdout). */
  readonly output: Readable;
  /** What Hearth writes to the agent (its stdin). */
  readonly input: Writable;
  /** Settles once when the agent is gone, however it went (crash, stop, kill). */
  readonly exit: Promise<AgentExit>;
  readonly hasExited: boolean;
  /** The tail of the agent's diagnostic output, to explain a crash; empty when there is none. */
  readonly stderr: string;
  /** The process id when the agent is a process (diagnostics and tests). */
  readonly pid: number | undefined;
  /** Ends the agent gently (closes its input), then forcefully after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** Synchronous, for exit handlers: ends the agent at once without waiting. */
  killNow(): void;
}

/**
 * Starts one agent. Production spawns the profile's command in its own process group
 * (`spawnAgent` in agentProcess.ts); tests pass an in-process peer built on the ACP SDK's agent side.
 */
export type AgentTransport = (launch: AgentLaunch) => Promise<AgentChannel>;
