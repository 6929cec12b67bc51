/**
 * The contract between agents (internal tool loops and external ACP agents) and the surfaces that
 * drive them (the chat panel, `hearth ask --agent`). Both kinds of agent produce the same event
 * stream, so a surface renders a turn without knowing which kind ran it.
 */
import type { Usage } from '../llm/types';
import type { ErrorCode } from '../errors';
import type { ConfinedRoot } from '../fs/confinedRoot';
import type { AgentTool } from './agentTools';
import type { AgentControls, AgentSessionInfo, SessionOpening, SignInChoice, SignInRequest } from './agentControls';

export type AgentKind = 'internal' | 'external';

export interface AgentDescriptor {
  name: string;
  kind: AgentKind;
  description?: string;
  /** External agents may be configured or known but not installed. */
  available: boolean;
  /** Why it is unavailable, in words a user can act on. */
  unavailableReason?: string;
}

export type ToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'denied';

export interface PlanEntry {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  priority?: 'high' | 'medium' | 'low';
}

export type AgentStopReason = 'end_turn' | 'cancelled' | 'max_steps' | 'max_tokens' | 'refusal' | 'error';

export type AgentEvent =
  | { type: 'text'; text: string }
  | { type: 'thought'; text: string }
  | { type: 'tool_call'; id: string; name: string; title?: string; arguments?: unknown; status: ToolCallStatus }
  /** `code`: a failed kiln tool's error code (`changes.rejected` when the user rejected the edit). */
  | { type: 'tool_update'; id: string; status: ToolCallStatus; result?: string; isError?: boolean; code?: string }
  | { type: 'plan'; entries: PlanEntry[] }
  /** A command the agent runs through Hearth's terminal: its output so far (the tail), and how it ended. */
  | { type: 'terminal'; id: string; command: string; output: string; truncated?: boolean; exit?: { code: number | null; signal: string | null } }
  /**
   * Token counts of a model call (internal agents) and/or how full the agent's context window is
   * (ACP `usage_update`, which carries no per-call counts); at least one of the two is present.
   */
  | { type: 'usage'; usage?: Usage; context?: ContextUsage }
  /** A failure the user should see in the conversation; `code` is the HearthError code. */
  | { type: 'error'; code: ErrorCode; message: string; remedy?: string }
  | { type: 'done'; stopReason: AgentStopReason };

/** An agent's context window as it reported it; `used` is absent when the agent did not know it. */
export interface ContextUsage {
  used?: number;
  size: number;
  /** The session's cumulative cost so far, when the agent reports one. */
  cost?: { amount: number; currency: string };
}

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: PermissionOptionKind;
}

export interface PermissionRequest {
  toolCallId: string;
  title: string;
  /** The tool's arguments or the agent's own description of what it will do. */
  detail?: string;
  options: PermissionOption[];
  /**
   * A protected-path write (DESIGN.md decision 15): only a person's explicit answer allows it —
   * `--yes` and other standing answers do not, and where nobody can be asked it is refused.
   */
  mustAsk?: boolean;
}

/** A time-out or a closed prompt is `cancelled`, which every agent treats as a reject. */
export type PermissionOutcome = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };

/** What a surface gives an agent session: the user's answer to permission prompts. */
export interface AgentSessionHost {
  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome>;
  /**
   * An external agent needs the user to sign in: the host shows the methods and returns the choice
   * (for a key method, with the key; for a terminal method, after the login command ran), or
   * undefined when the user declines or nobody can be asked. Absent: sign-in fails with the methods listed.
   */
  signIn?(request: SignInRequest, signal: AbortSignal): Promise<SignInChoice | undefined>;
}

/** A note (or a selection) attached to a prompt as context. */
export interface PromptAttachment {
  path: string;
  startLine?: number;
  endLine?: number;
  text: string;
}

export interface AgentSession {
  readonly id: string;
  readonly agent: AgentDescriptor;
  /** Runs one turn; the iterator ends after a `done` event. Aborting the signal cancels the turn. */
  prompt(text: string, attachments?: PromptAttachment[], signal?: AbortSignal): AsyncIterable<AgentEvent>;
  /** Ends the session and any process behind it; an external agent's session stays resumable. */
  dispose(): Promise<void>;
  /** External agents: the agent's options and commands (absent: the agent offers none, or is internal). */
  readonly controls?: AgentControls;
  /** External agents: how the agent's session was opened (new, resumed, loaded); undefined before it started. */
  readonly opening?: SessionOpening;
  /** Ends the conversation for good: the agent's session is closed (session/close), then disposed. */
  end?(): Promise<void>;
  /** Signs out of an external agent that offers `logout` (and forgets a key Hearth kept for it); false when it offers none. */
  logout?(): Promise<boolean>;
}

export interface AgentStartOptions {
  host: AgentSessionHost;
  /** The workspace root: the agent's working directory and the boundary of its file access. */
  cwd: string;
  /** The kiln's folder, where kiln-relative attachment paths point (the workspace root when unset). */
  kilnRoot?: string;
  /** A model (`provider/model`) for this session, overriding the card's and the active one. */
  model?: string;
  /**
   * Earlier turns of the conversation this session continues (after a model switch or a reload).
   * Internal agents take them as real chat history; external agents cannot be given history, so
   * they ignore it and the surface sends a recap with the first prompt instead.
   */
  history?: HistoryMessage[];
  /** External agents: the agent's own session to continue (session/resume, else session/load, else new). */
  resume?: string;
  /** External agents: option choices remembered for this agent (option id → value), restored when it opens. */
  preferences?: Record<string, string | boolean>;
  /**
   * Internal agents: while this answers true (a read-only mode such as `hearth acp`'s `ask`), only
   * read-only tools are offered to the model; asked at the start of each turn.
   */
  readOnly?: () => boolean;
  /** Internal agents: the kiln's files as this session reads and writes them (an ACP client's `fs/*`), instead of the disk directly. */
  kilnFiles?: ConfinedRoot;
  /** Internal agents: tools besides the kiln's and the gateway's (an ACP client's own MCP servers); asked at the start of each turn. */
  extraTools?: () => readonly AgentTool[];
}

/** One earlier message of a conversation, oldest first; turns alternate user, assistant. */
export interface HistoryMessage {
  role: 'user' | 'assistant';
  text: string;
}

/**
 * Every agent a surface can start: the internal ones (the built-in `kiln` agent and the cards) and
 * the external ACP agents (discovered or configured, available or not, with why).
 */
export interface AgentCatalog {
  list(): Promise<AgentDescriptor[]>;
  /** The agent a new conversation starts with (`default_agent`, `agent_preference`). */
  defaultAgent(): Promise<string>;
  /**
   * Why `agent_preference = "acp"` fell back to the internal agent because the folder is not
   * trusted, for the surface to show; undefined when it did not.
   */
  trustFallback?(): Promise<string | undefined>;
  start(name: string, options: AgentStartOptions): Promise<AgentSession>;
  /** An external agent's own saved sessions in `cwd` (session/list); throws when it has none to list. */
  listSessions?(name: string, cwd: string): Promise<AgentSessionInfo[]>;
  /** Closes an external agent's saved session that no surface has open (its conversation was deleted); false when it offers no close. */
  closeSession?(name: string, cwd: string, sessionId: string): Promise<boolean>;
}
