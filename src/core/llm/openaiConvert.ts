/**
 * Pure conversions between Hearth's chat shapes and the OpenAI chat-completions wire format (used by
 * cloud_a, custom, openrouter, zai, cohere and vertexai). No I/O here, so every rule is unit-tested.
 */
import type OpenAI from 'openai';
import { parseToolArguments } from './toolArguments';
import type { ChatEvent, ChatMessage, StopReason, ToolDefinition } from './types';

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type WireTool = OpenAI.Chat.Completions.ChatCompletionTool;
type WireChunk = OpenAI.Chat.Completions.ChatCompletionChunk;

export function toOpenAiMessages(messages: ChatMessage[]): WireMessage[] {
  return messages.map((message): WireMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          // OpenAI wants null, not "", beside tool calls.
          content: message.content === '' ? null : message.content,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.isError ? `Error: ${message.content}` : message.content };
    }
  });
}

export function toOpenAiTools(tools: ToolDefinition[]): WireTool[] {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.parameters },
  }));
}

export function openAiStopReason(reason: string | null | undefined): StopReason {
  if (reason === 'stop') return 'stop';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  if (reason === 'length') return 'length';
  return 'other';
}

/**
 * Turns streamed chunks into events. Tool-call fragments are accumulated by index and emitted whole
 * (with parsed arguments) when the turn finishes; usage comes in a final chunk without choices.
 */
export class OpenAiStreamAssembler {
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();
  private finish: string | null | undefined;
  private usageSeen = false;

  push(chunk: WireChunk): ChatEvent[] {
    const events: ChatEvent[] = [];
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') events.push({ type: 'text', text: delta.content });
      for (const fragment of delta.tool_calls ?? []) {
        const entry = this.calls.get(fragment.index) ?? { id: '', name: '', args: '' };
        if (fragment.id) entry.id = fragment.id;
        if (fragment.function?.name) entry.name += fragment.function.name;
        if (fragment.function?.arguments) entry.args += fragment.function.arguments;
        this.calls.set(fragment.index, entry);
      }
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
    if (chunk.usage) {
      this.usageSeen = true;
      events.push({ type: 'usage', usage: { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 } });
    }
    return events;
  }

  /** Call once the stream ends: the accumulated tool calls, then the stop event. */
  finishEvents(): ChatEvent[] {
    const events: ChatEvent[] = [];
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b);
    ordered.forEach(([index, call]) => {
      events.push({ type: 'tool_call', call: { id: call.id || `call_${index}`, name: call.name, arguments: parseToolArguments(call.args) } });
    });
    let reason = openAiStopReason(this.finish);
    // Some compatible servers say "stop" even when they returned tool calls.
    if (ordered.length > 0 && reason === 'stop') reason = 'tool_calls';
    events.push({ type: 'stop', reason, ...(this.finish ? { raw: this.finish } : {}) });
    return events;
  }

  get sawUsage(): boolean {
    return this.usageSeen;
  }
}
