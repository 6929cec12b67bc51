/**
 * What an external agent lets the user choose and run besides prompts: its configuration options
 * (mode, model, reasoning level, switches), its slash commands, and how its session was opened.
 * Surfaces render these (header pickers, `/` completion, `hearth ask --mode/--model`) without
 * knowing ACP. Free of Node APIs: the webview imports these types too.
 */
import type { Event } from '../lifecycle/emitter';
import type { HistoryMessage } from './agentSession';

/** Where a picker goes in the header: the spec's categories; any other (or none) is `other`. */
export type AgentOptionCategory = 'mode' | 'model' | 'thought_level' | 'other';

export interface AgentOptionChoice {
  value: string;
  name: string;
  description?: string;
}

export type AgentOptionView = {
  id: string;
  name: string;
  description?: string;
  category: AgentOptionCategory;
} & ({ type: 'select'; value: string; choices: AgentOptionChoice[] } | { type: 'boolean'; value: boolean });

export interface AgentCommandView {
  name: string;
  description: string;
  /** Shown while the command's input has not been typed yet. */
  hint?: string;
}

export interface AgentControlsView {
  options: AgentOptionView[];
  commands: AgentCommandView[];
  /** The session's title as the agent reported it (session_info_update). */
  title?: string;
}

/** The live controls of one session; changes come from the agent as well as from the user. */
export interface AgentControls {
  current(): AgentControlsView;
  readonly onDidChange: Event<AgentControlsView>;
  /** Asks the agent to change one option; throws a HearthError the surface shows when it refuses. */
  setOption(id: string, value: string | boolean): Promise<void>;
}

/**
 * How an external agent's session was opened: `new`, `resumed` (session/resume: the agent keeps
 * the context), `loaded` (session/load: the agent replayed the history, in `replayed`). `reason`
 * says why a wanted resume did not happen (the surface then sends Hearth's recap).
 */
export interface SessionOpening {
  sessionId: string;
  how: 'new' | 'resumed' | 'loaded';
  reason?: string;
  replayed?: HistoryMessage[];
}

/** One of the agent's own saved sessions (session/list). */
export interface AgentSessionInfo {
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt?: string;
}

/** An option value a user or a remembered choice asks for, checked against the option's kind. */
export function acceptsValue(option: AgentOptionView, value: string | boolean): boolean {
  if (option.type === 'boolean') return typeof value === 'boolean';
  return typeof value === 'string' && option.choices.some((choice) => choice.value === value);
}

/** The option a `--mode`/`--model`/`:model` names: by category first, then by id. */
export function optionFor(view: AgentControlsView, category: 'mode' | 'model'): AgentOptionView | undefined {
  return view.options.find((option) => option.category === category) ?? view.options.find((option) => option.id === category);
}

/**
 * One way to sign in to an agent (its `authMethods`): `agent` (the agent does it on `authenticate`,
 * e.g. a browser login), `key` (an API key in `variable`, asked once and kept in the editor's secret
 * storage), `terminal` (the agent's own login command, run in a terminal for the user).
 */
export interface AuthMethodView {
  id: string;
  name: string;
  description?: string;
  kind: 'agent' | 'key' | 'terminal';
  /** `key`: the environment variable the agent reads the key from. */
  variable?: string;
  /** `terminal`: what to run (the agent's command with the method's arguments and environment). */
  command?: { command: string; args: string[]; env: Record<string, string> };
}

/** The user's choice; `key` carries the key for a key method (never logged, never saved in config). */
export interface SignInChoice {
  methodId: string;
  key?: string;
}

export interface SignInRequest {
  agent: string;
  methods: AuthMethodView[];
  /** The agent's own words on why (its error message). */
  reason: string;
}
