/**
 * Conversion between the editor's language model messages (`vscode.lm`: messages of parts — text,
 * tool calls, tool results, data) and Hearth's provider types (ChatMessage, ChatEvent,
 * ToolDefinition), on plain shapes so it runs and is tested without an editor. The editor side
 * (src/vscode/models/lmPartsAdapter.ts) only turns VS Code's classes into these shapes and back.
 *
 * Used both ways: Hearth's providers served as `vscode.lm` models (the editor's messages in,
 * Hearth's events out), and `vscode.lm` models used by Hearth's chat (Hearth's messages out).
 */
import type { ChatEvent, ChatMessage, ToolCall, ToolDefinition } from './types';

export type LmRole = 'user' | 'assistant' | 'system';

export type LmPart =
  | { kind: 'text'; value: string }
  | { kind: 'tool_call'; callId: string; name: string; input: unknown }
  | { kind: 'tool_result'; callId: string; content: LmPart[] }
  | { kind: 'data'; mimeType: string; data: Uint8Array }
  /** A part this version does not know (prompt-tsx, a newer part kind): left out of the prompt. */
  | { kind: 'unknown' };

export interface LmMessage {
  role: LmRole;
  parts: LmPart[];
}

export interface LmTool {
  name: string;
  description: string;
  inputSchema?: object;
}

/** Data parts larger than this are named, not inlined (a model must not get megabytes of base64). */
export const MAX_INLINE_DATA_CHARS = 100_000;

const TEXT_MIME = /^(text\/|application\/(json|xml|x-yaml|yaml|markdown)\b)|\+json$|\+xml$/i;

/** A data part as prompt text: text and JSON inline (cut at MAX_INLINE_DATA_CHARS), anything else named by its type and size. */
export function dataPartText(part: { mimeType: string; data: Uint8Array }): string | undefined {
  const mime = part.mimeType.trim().toLowerCase();
  // VS Code's own bookkeeping parts (cache markers, stateful markers) carry nothing for the model.
  if (mime === 'cache_control' || mime === 'stateful_marker' || mime.startsWith('application/vnd.vscode')) return undefined;
  if (TEXT_MIME.test(mime)) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(part.data);
    return text.length > MAX_INLINE_DATA_CHARS ? `${text.slice(0, MAX_INLINE_DATA_CHARS)}\n… (${text.length - MAX_INLINE_DATA_CHARS} more characters of ${mime} left out)` : text;
  }
  return `[${mime || 'binary'} data, ${part.data.byteLength} bytes, not sent: this model takes text only]`;
}

/** The text of parts in order (tool calls and results are carried separately). */
function partsText(parts: readonly LmPart[]): string {
  const out: string[] = [];
  for (const part of parts) {
    if (part.kind === 'text') out.push(part.value);
    else if (part.kind === 'data') {
      const text = dataPartText(part);
      if (text !== undefined) out.push(text);
    }
  }
  return out.join('');
}

function toolInput(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input };
}

/**
 * The editor's messages as Hearth's: system text stays system; an assistant message keeps its
 * tool calls; each tool result becomes a `tool` message named after the call it answers (a result
 * whose call is not in the conversation keeps the call id as its name).
 */
export function lmMessagesToChat(messages: readonly LmMessage[]): ChatMessage[] {
  const names = new Map<string, string>();
  const out: ChatMessage[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const calls: ToolCall[] = message.parts.filter((p) => p.kind === 'tool_call').map((p) => ({ id: p.callId, name: p.name, arguments: toolInput(p.input) }));
      for (const call of calls) names.set(call.id, call.name);
      out.push({ role: 'assistant', content: partsText(message.parts), ...(calls.length > 0 ? { toolCalls: calls } : {}) });
      continue;
    }
    // Results first: the model's protocol wants them right after the call, before any new user text.
    for (const part of message.parts) {
      if (part.kind !== 'tool_result') continue;
      out.push({ role: 'tool', toolCallId: part.callId, name: names.get(part.callId) ?? part.callId, content: partsText(part.content) });
    }
    const text = partsText(message.parts);
    if (text || !message.parts.some((p) => p.kind === 'tool_result')) out.push({ role: message.role, content: text });
  }
  return out;
}

/**
 * Hearth's messages as the editor's, for a `vscode.lm` model (which has no system role: system
 * text leads the first user message) — tool calls as parts of the assistant message, tool results
 * as parts of a user message; an error result says so in its text.
 */
export function chatMessagesToLm(messages: readonly ChatMessage[]): LmMessage[] {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  let systemPending = system.length > 0 ? system.join('\n\n') : undefined;
  const out: LmMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'user') {
      out.push({ role: 'user', parts: [{ kind: 'text', value: systemPending ? `${systemPending}\n\n${message.content}` : message.content }] });
      systemPending = undefined;
    } else if (message.role === 'assistant') {
      const parts: LmPart[] = message.content ? [{ kind: 'text', value: message.content }] : [];
      for (const call of message.toolCalls ?? []) parts.push({ kind: 'tool_call', callId: call.id, name: call.name, input: call.arguments });
      out.push({ role: 'assistant', parts });
    } else {
      const text = message.isError ? `Error: ${message.content}` : message.content;
      out.push({ role: 'user', parts: [{ kind: 'tool_result', callId: message.toolCallId, content: [{ kind: 'text', value: text }] }] });
    }
  }
  if (systemPending) out.unshift({ role: 'user', parts: [{ kind: 'text', value: systemPending }] });
  return out;
}

/** The tools the editor offers, as Hearth's tool definitions (a tool without a schema takes an empty object). */
export function lmToolsToDefinitions(tools: readonly LmTool[] | undefined): ToolDefinition[] {
  return (tools ?? []).map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    parameters: tool.inputSchema && typeof tool.inputSchema === 'object' ? (tool.inputSchema as Record<string, unknown>) : { type: 'object', properties: {} },
  }));
}

/** One of Hearth's stream events as a response part for the editor; usage and stop carry none. */
export function chatEventToLmPart(event: ChatEvent): LmPart | undefined {
  if (event.type === 'text') return event.text ? { kind: 'text', value: event.text } : undefined;
  if (event.type === 'tool_call') return { kind: 'tool_call', callId: event.call.id, name: event.call.name, input: event.call.arguments };
  return undefined;
}

/** An editor response part as Hearth's stream event (text and tool calls; the rest carries nothing for Hearth's chat). */
export function lmPartToChatEvent(part: LmPart): ChatEvent | undefined {
  if (part.kind === 'text') return part.value ? { type: 'text', text: part.value } : undefined;
  if (part.kind === 'tool_call') return { type: 'tool_call', call: { id: part.callId, name: part.name, arguments: toolInput(part.input) } };
  if (part.kind === 'data') {
    const text = dataPartText(part);
    return text ? { type: 'text', text } : undefined;
  }
  return undefined;
}

/** A rough token count for a text or message (4 characters a token), as VS Code asks for one before each request. */
export function estimateLmTokens(input: string | LmMessage): number {
  const text = typeof input === 'string' ? input : input.parts.map((p) => (p.kind === 'text' ? p.value : p.kind === 'tool_call' ? `${p.name}${JSON.stringify(p.input ?? {})}` : p.kind === 'tool_result' ? partsText(p.content) : p.kind === 'data' ? (dataPartText(p) ?? '') : '')).join('');
  return Math.ceil(text.length / 4);
}
