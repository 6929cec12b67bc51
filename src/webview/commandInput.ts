/**
 * The `:` commands of the chat input: parsing what was typed, and the completions shown as one
 * types. Pure functions (no DOM), so the rules are unit-tested directly.
 */
import type { AgentCommandView } from '../core/agents/agentControls';
import { CHAT_COMMANDS, type ChatCommandName } from '../core/chat/commandNames';

export const COMMAND_DESCRIPTIONS: Record<ChatCommandName, string> = {
  model: 'switch the model (provider/model, or a name keeping the provider)',
  models: 'list every provider\'s models',
  agent: 'choose the agent',
  clear: 'empty this conversation',
  new: 'start a new conversation',
  logout: 'sign out of the external agent (where it offers it)',
  help: 'list the commands and keys',
};

export type ParsedInput =
  | { kind: 'message'; text: string }
  | { kind: 'command'; name: ChatCommandName; arg: string }
  | { kind: 'unknown'; name: string };

/**
 * A leading `:word` is a command; anything else (including `:)` or `: note`) is a message. A
 * message that must start with a command word can be sent with a leading space or `::`.
 */
export function parseInput(raw: string): ParsedInput {
  const text = raw.trim();
  if (raw.startsWith('::')) return { kind: 'message', text: raw.slice(1).trim() };
  const match = /^:([a-z]+)(?:\s+([\s\S]*))?$/i.exec(raw.startsWith(' ') ? '' : text);
  if (!match) return { kind: 'message', text };
  const name = match[1]!.toLowerCase();
  if (!(CHAT_COMMANDS as readonly string[]).includes(name)) return { kind: 'unknown', name };
  return { kind: 'command', name: name as ChatCommandName, arg: (match[2] ?? '').trim() };
}

export interface Completion {
  /** What the list shows. */
  label: string;
  detail?: string;
  /** The whole input after accepting it. */
  value: string;
}

export interface CompletionContext {
  agents: { name: string; available: boolean; unavailableReason?: string }[];
  models: string[];
  /** The active external agent's own `/` commands (available_commands_update). */
  commands?: AgentCommandView[];
}

const MAX_COMPLETIONS = 12;

/** Completions for the input as typed so far; empty when it is not a command. */
export function complete(input: string, context: CompletionContext): Completion[] {
  // The agent's commands are its own: sent as typed (`/name input`), Hearth's stay on `:`.
  const slash = /^\/([\w.:-]*)$/.exec(input);
  if (slash && context.commands?.length) {
    const names = rank(context.commands.map((c) => c.name), slash[1]!.toLowerCase());
    return names.map((name) => {
      const command = context.commands!.find((c) => c.name === name)!;
      const detail = [command.description, command.hint && `(${command.hint})`].filter(Boolean).join(' ');
      return { label: `/${name}`, ...(detail ? { detail } : {}), value: `/${name}${command.hint ? ' ' : ''}` };
    });
  }
  const head = /^:([a-z]*)$/i.exec(input);
  if (head) {
    const prefix = head[1]!.toLowerCase();
    return CHAT_COMMANDS.filter((c) => c.startsWith(prefix)).map((c) => ({ label: `:${c}`, detail: COMMAND_DESCRIPTIONS[c], value: `:${c}${c === 'model' || c === 'agent' ? ' ' : ''}` }));
  }
  const withArg = /^:(model|agent)\s+(.*)$/i.exec(input);
  if (!withArg) return [];
  const [, name, partial] = withArg;
  const query = partial!.trim().toLowerCase();
  if (name!.toLowerCase() === 'model') {
    return rank(context.models, query).map((id) => ({ label: id, value: `:model ${id}` }));
  }
  return rank(
    context.agents.map((a) => a.name),
    query,
  ).map((agentName) => {
    const agent = context.agents.find((a) => a.name === agentName)!;
    return { label: agentName, detail: agent.available ? undefined : `unavailable: ${agent.unavailableReason ?? ''}`, value: `:agent ${agentName}` };
  });
}

/** Prefix matches first, then matches anywhere; at most MAX_COMPLETIONS. */
function rank(names: string[], query: string): string[] {
  if (!query) return names.slice(0, MAX_COMPLETIONS);
  const lower = (n: string) => n.toLowerCase();
  const prefix = names.filter((n) => lower(n).startsWith(query) || lower(n).split('/').pop()!.startsWith(query));
  const anywhere = names.filter((n) => !prefix.includes(n) && lower(n).includes(query));
  return [...prefix, ...anywhere].slice(0, MAX_COMPLETIONS);
}

/** ↑/↓ through what was sent, like a shell: `recall(-1)` goes back, `recall(+1)` forward. */
export class InputHistory {
  private readonly entries: string[] = [];
  private cursor = 0;
  private draft = '';

  constructor(private readonly limit = 100) {}

  push(text: string): void {
    if (text && this.entries[this.entries.length - 1] !== text) this.entries.push(text);
    if (this.entries.length > this.limit) this.entries.shift();
    this.cursor = this.entries.length;
    this.draft = '';
  }

  /** The entry to show, or undefined when there is nowhere to go. `current` is kept as the draft. */
  recall(step: -1 | 1, current: string): string | undefined {
    if (this.cursor === this.entries.length) this.draft = current;
    const next = this.cursor + step;
    if (next < 0 || next > this.entries.length) return undefined;
    this.cursor = next;
    return next === this.entries.length ? this.draft : this.entries[next];
  }

  get size(): number {
    return this.entries.length;
  }
}
