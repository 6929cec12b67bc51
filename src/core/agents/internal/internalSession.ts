/**
 * The internal agent: a tool-calling loop on a chat provider. Each step streams one assistant turn;
 * its tool calls run (after the user's permission for writing tools), their results go back, and
 * the loop repeats until the model answers without calling a tool. Guard rails: a step bound, the
 * same call with the same arguments refused (and a model that insists stopped), tool failures and
 * denials returned to the model as results rather than thrown.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../host';
import { isLlmError } from '../../llm/errors';
import type { ChatMessage, ChatOptions, LlmProvider, ToolCall } from '../../llm/types';
import { describeError, isHearthError } from '../../errors';
import type { AgentDescriptor, AgentEvent, AgentSession, AgentSessionHost, AgentStopReason, PromptAttachment } from '../agentSession';
import { AgentError } from '../agentErrors';
import type { AgentTool, ToolOutcome } from '../agentTools';
import { llmRemedy } from './llmRemedy';
import { askPermission } from './toolPermission';

/** Steps (model turns) per prompt; a model that needs more is almost certainly looping. */
export const DEFAULT_MAX_STEPS = 12;

/** A tool result longer than this is shortened in the event (the model still gets all of it). */
const EVENT_RESULT_CHARS = 4000;

export interface InternalSessionOptions {
  agent: AgentDescriptor;
  provider: LlmProvider;
  /** Request overrides (model, temperature) for every step. */
  chatOptions: ChatOptions;
  systemPrompt: string;
  /** Earlier messages of the conversation this session continues, after the system prompt. */
  history?: readonly ChatMessage[];
  /** Asked at the start of each turn: gateway tools come and go while a session lives. */
  tools: () => AgentTool[];
  host: AgentSessionHost;
  /** `[cli].confirm_destructive`: writing tools ask the host first. */
  confirmDestructive: boolean;
  log: Logger;
  maxSteps?: number;
}

export class InternalAgentSession implements AgentSession {
  readonly id = randomUUID();
  readonly agent: AgentDescriptor;
  private readonly history: ChatMessage[];
  /** Tools the user allowed "always" in this session. */
  private readonly alwaysAllowed = new Set<string>();
  private busy = false;
  /** The running turn's id: the change journal groups the turn's edits by it (one undo reverts them all). */
  private turnId = '';
  private disposed = false;
  private readonly disposal = new AbortController();

  constructor(private readonly options: InternalSessionOptions) {
    this.agent = options.agent;
    this.history = [{ role: 'system', content: options.systemPrompt }, ...(options.history ?? [])];
  }

  /** The conversation so far (system prompt first); for tests and transcripts of what the model saw. */
  get messages(): readonly ChatMessage[] {
    return this.history;
  }

  async *prompt(text: string, attachments: PromptAttachment[] = [], signal?: AbortSignal): AsyncIterable<AgentEvent> {
    if (this.disposed) throw new AgentError('agent.disposed', `the session with "${this.agent.name}" has ended; start a new one`);
    if (this.busy) throw new AgentError('agent.busy', `"${this.agent.name}" is still answering; wait for it or cancel it first`);
    this.busy = true;
    this.turnId = `${this.id}-${randomUUID().slice(0, 8)}`;
    const abort = AbortSignal.any([this.disposal.signal, ...(signal ? [signal] : [])]);
    // The history is only committed when a turn ends cleanly enough to be resumed from; a turn
    // cut off between a tool call and its result would make the next request invalid.
    const turn: ChatMessage[] = [{ role: 'user', content: withAttachments(text, attachments) }];
    try {
      const stopReason = yield* this.runTurn(turn, abort);
      this.history.push(...completeTurn(turn));
      yield { type: 'done', stopReason };
    } finally {
      this.busy = false;
    }
  }

  private async *runTurn(turn: ChatMessage[], signal: AbortSignal): AsyncGenerator<AgentEvent, AgentStopReason> {
    const tools = this.options.tools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const definitions = tools.map((tool) => tool.definition);
    const seen = new Map<string, number>();
    const maxSteps = this.options.maxSteps ?? DEFAULT_MAX_STEPS;
    for (let step = 1; step <= maxSteps; step++) {
      if (signal.aborted) return 'cancelled';
      let content = '';
      const calls: ToolCall[] = [];
      let finish: string | undefined;
      try {
        for await (const event of this.options.provider.chat([...this.history, ...turn], definitions, this.options.chatOptions, signal)) {
          if (event.type === 'text') {
            content += event.text;
            yield { type: 'text', text: event.text };
          } else if (event.type === 'tool_call') calls.push(event.call);
          else if (event.type === 'usage') yield { type: 'usage', usage: event.usage };
          else finish = event.reason;
        }
      } catch (error) {
        if (signal.aborted || isLlmError(error, 'llm.cancelled')) return 'cancelled';
        yield errorEvent(error);
        return 'error';
      }
      turn.push({ role: 'assistant', content, ...(calls.length > 0 ? { toolCalls: calls } : {}) });
      if (calls.length === 0) return finish === 'length' ? 'max_tokens' : 'end_turn';

      let insisted = false;
      const reviewsAtOnce = this.startReviewedWrites(calls, byName, seen, signal);
      for (const call of calls) {
        const key = `${call.name}\u0000${canonicalJson(call.arguments)}`;
        const repeats = seen.get(key) ?? 0;
        seen.set(key, repeats + 1);
        const tool = byName.get(call.name);
        yield { type: 'tool_call', id: call.id, name: call.name, title: tool?.title, arguments: call.arguments, status: 'pending' };
        let outcome: { text: string; isError: boolean; denied?: boolean; code?: string };
        if (signal.aborted) outcome = { text: 'Cancelled by the user before it ran.', isError: true, denied: true };
        else if (repeats > 0) {
          insisted ||= repeats > 1;
          outcome = {
            text: `Not run: you already called ${call.name} with exactly these arguments in this turn, and the result above still holds. Do not repeat it; use that result, try different arguments, or answer.`,
            isError: true,
          };
        } else if (isUnparsed(call.arguments)) {
          outcome = { text: `Not run: the arguments for ${call.name} were not valid JSON (${shorten(String(call.arguments._raw)).slice(0, 300)}). Call it again with a JSON object that matches its schema.`, isError: true };
        } else if (!tool) {
          const names = [...byName.keys()].join(', ') || 'none';
          outcome = { text: `There is no tool named "${call.name}". Available tools: ${names}.`, isError: true };
        } else if (reviewsAtOnce.has(call)) {
          yield { type: 'tool_update', id: call.id, status: 'in_progress' };
          outcome = await reviewsAtOnce.get(call)!;
        } else outcome = yield* this.runTool(tool, call, signal);
        const status = outcome.denied ? 'denied' : outcome.isError ? 'failed' : 'completed';
        yield { type: 'tool_update', id: call.id, status, result: shorten(outcome.text), isError: outcome.isError || undefined, ...(outcome.code ? { code: outcome.code } : {}) };
        turn.push({ role: 'tool', toolCallId: call.id, name: call.name, content: outcome.text, ...(outcome.isError ? { isError: true } : {}) });
      }
      if (signal.aborted) return 'cancelled';
      if (insisted) {
        yield {
          type: 'error',
          code: 'agent.tool_loop',
          message: `${this.agent.name} kept repeating the same tool call after being told the result would not change, so the turn was stopped.`,
          remedy: 'Rephrase the request, or choose a larger model (small models loop on tools more often).',
        };
        return 'error';
      }
    }
    yield {
      type: 'error',
      code: 'agent.max_steps',
      message: `${this.agent.name} used all ${maxSteps} steps without giving an answer, so the turn was stopped.`,
      remedy: 'Ask again more specifically, or split the task into smaller requests.',
    };
    return 'max_steps';
  }

  /**
   * Reviewed kiln writes of one step (to different notes) start together, so their reviews reach the
   * user at once — one multi-file review for the turn instead of one diff after another.
   */
  private startReviewedWrites(calls: ToolCall[], byName: Map<string, AgentTool>, seen: Map<string, number>, signal: AbortSignal): Map<ToolCall, Promise<ToolOutcome>> {
    const candidates = calls.filter((call) => {
      const tool = byName.get(call.name);
      const key = `${call.name}\u0000${canonicalJson(call.arguments)}`;
      return tool?.reviewed === true && !tool.readOnly && !seen.has(key) && !isUnparsed(call.arguments) && typeof call.arguments.path === 'string';
    });
    const paths = candidates.map((call) => String(call.arguments.path));
    const distinct = candidates.filter((call, index) => paths.indexOf(paths[index]) === paths.lastIndexOf(paths[index]));
    const keys = distinct.map((call) => `${call.name}\u0000${canonicalJson(call.arguments)}`);
    const unique = distinct.filter((_call, index) => keys.indexOf(keys[index]) === index);
    if (unique.length < 2 || signal.aborted) return new Map();
    return new Map(unique.map((call) => [call, this.callTool(byName.get(call.name)!, call, signal)]));
  }

  private async callTool(tool: AgentTool, call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
    try {
      return await tool.call(call.arguments, signal, { turn: this.turnId, agent: this.agent.name });
    } catch (error) {
      this.options.log.child('agents').warn(`tool ${tool.name} threw: ${describeError(error)}`);
      return { text: `Tool failed: ${describeError(error)}`, isError: true };
    }
  }

  private async *runTool(tool: AgentTool, call: ToolCall, signal: AbortSignal): AsyncGenerator<AgentEvent, { text: string; isError: boolean; denied?: boolean; code?: string }> {
    if (!tool.readOnly && !tool.reviewed && this.options.confirmDestructive && !this.alwaysAllowed.has(tool.name)) {
      const answer = await askPermission(this.options.host, tool, call, signal, this.options.log);
      if (answer === 'always') this.alwaysAllowed.add(tool.name);
      if (answer === 'denied') {
        return { text: `The user denied permission to run ${tool.name} with these arguments. Do not retry it; continue without it or ask the user what to do.`, isError: true, denied: true };
      }
    }
    yield { type: 'tool_update', id: call.id, status: 'in_progress' };
    // AgentTool.call should not throw; a bug in one tool still must not end the conversation.
    return this.callTool(tool, call, signal);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.disposal.abort();
  }
}

function withAttachments(text: string, attachments: readonly PromptAttachment[]): string {
  if (attachments.length === 0) return text;
  const blocks = attachments.map((a) => {
    const lines = a.startLine !== undefined ? ` (lines ${a.startLine}-${a.endLine ?? a.startLine})` : '';
    return `Attached: ${a.path}${lines}\n\`\`\`\`\n${a.text}\n\`\`\`\``;
  });
  return `${blocks.join('\n\n')}\n\n${text}`;
}

/**
 * What a cut-off turn leaves in the history: the user's message and every complete step. An
 * assistant message whose tool calls have no results yet is dropped with what follows it.
 */
function completeTurn(turn: ChatMessage[]): ChatMessage[] {
  const kept = [...turn];
  const last = kept.at(-1);
  if (last?.role === 'assistant' && last.toolCalls?.length) kept.pop();
  for (let i = kept.length - 1; i >= 0; i--) {
    const message = kept[i];
    if (message.role !== 'assistant' || !message.toolCalls) continue;
    const answered = new Set(kept.slice(i + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
    if (message.toolCalls.every((c) => answered.has(c.id))) break;
    kept.splice(i);
  }
  return kept;
}

/** The provider keeps arguments that were not a JSON object under `_raw` (toolArguments.ts). */
function isUnparsed(args: Record<string, unknown>): args is { _raw: unknown } {
  const keys = Object.keys(args);
  return keys.length === 1 && keys[0] === '_raw';
}

/** Argument objects compared regardless of key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function shorten(text: string): string {
  return text.length > EVENT_RESULT_CHARS ? `${text.slice(0, EVENT_RESULT_CHARS)}…` : text;
}

function errorEvent(error: unknown): AgentEvent {
  const code = isHearthError(error) ? error.code : 'agent.failed';
  return { type: 'error', code, message: describeError(error), remedy: llmRemedy(code) };
}
