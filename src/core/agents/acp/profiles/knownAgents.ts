/**
 * The external agents Hearth looks for on PATH when `[acp].enable_discovery` is on (DESIGN.md §10).
 * Each is a plain launch definition, so a profile can `extends` it by name.
 */
export interface AgentLaunch {
  command: string;
  args: string[];
  /** Unresolved values: `{env:VAR}` references are read when the agent starts. */
  env: Record<string, string>;
  /** Other names the same program is installed under, tried in order when `command` is not found. */
  fallbackCommands?: string[];
}

export interface KnownAgent extends AgentLaunch {
  name: string;
  description: string;
}

export const KNOWN_AGENTS: readonly KnownAgent[] = [
  // The adapter was renamed; either name is the same agent.
  { name: 'claude-code', command: 'claude-agent-acp', fallbackCommands: ['claude-code-acp'], args: [], env: {}, description: 'Claude Code' },
  { name: 'gemini', command: 'gemini', args: ['--experimental-acp'], env: {}, description: 'Gemini CLI' },
  { name: 'codex', command: 'codex-acp', args: [], env: {}, description: 'Codex (codex-acp)' },
  { name: 'opencode', command: 'opencode', args: ['acp'], env: {}, description: 'opencode' },
  { name: 'goose', command: 'goose', args: ['acp'], env: {}, description: 'Goose' },
  { name: 'qwen', command: 'qwen', args: ['--experimental-acp'], env: {}, description: 'Qwen Code' },
];
