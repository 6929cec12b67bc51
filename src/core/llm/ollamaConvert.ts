/**
 * Pure conversions between Hearth's chat shapes and the local runner's (Ollama) `/api/chat` format.
 * The runner gives tool calls no ids and parsed arguments; ids are generated so tool results can be
 * matched the same way as for the hosted backends, and results carry `tool_name` instead.
 */
import type { ChatResponse, Message, Tool } from 'ollama';
import { parseToolArguments } from './toolArguments';
import type { ChatEvent, ChatMessage, StopReason, ToolDefinition } from './types';

export function toOllamaMessages(messages: ChatMessage[]): Message[] {
  return messages.map((message): Message => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        return {
          role: 'assistant',
          content: message.content,
          ...(message.toolCalls?.length ? { tool_calls: message.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })) } : {}),
        };
      case 'tool':
        return { role: 'tool', content: message.isError ? `Error: ${message.content}` : message.content, tool_name: message.name };
    }
  });
}

export function toOllamaTools(tools: ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.parameters as Tool['function']['parameters'] },
  }));
}

export function ollamaStopReason(reason: string | undefined, sawToolCalls: boolean): StopReason {
  if (sawToolCalls) return 'tool_calls';
  if (reason === 'stop' || reason === undefined || reason === '') return 'stop';
  if (reason === 'length') return 'length';
  return 'other';
}

/** Turns `/api/chat` stream parts into events; `newId` makes the ids the runner does not send. */
export class OllamaStreamAssembler {
  private toolCalls = 0;
  constructor(private readonly newId: () => string) {}

  push(part: ChatResponse): ChatEvent[] {
    const events: ChatEvent[] = [];
    if (part.message?.content) events.push({ type: 'text', text: part.message.content });
    for (const call of part.message?.tool_calls ?? []) {
      this.toolCalls++;
      events.push({ type: 'tool_call', call: { id: this.newId(), name: call.function.name, arguments: parseToolArguments(call.function.arguments) } });
    }
    if (part.done) {
      events.push({ type: 'usage', usage: { inputTokens: part.prompt_eval_count ?? 0, outputTokens: part.eval_count ?? 0 } });
      events.push({ type: 'stop', reason: ollamaStopReason(part.done_reason, this.toolCalls > 0), ...(part.done_reason ? { raw: part.done_reason } : {}) });
    }
    return events;
  }
}
