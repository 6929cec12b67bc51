/**
 * Pure conversions between Hearth's chat shapes and the cloud_b (Anthropic Messages) wire format:
 * system prompts move to the top-level `system`, tool results become user `tool_result` blocks and
 * consecutive same-role messages are merged (the API requires alternation).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { parseToolArguments } from './toolArguments';
import type { ChatEvent, ChatMessage, StopReason, ToolDefinition } from './types';

type WireMessage = Anthropic.MessageParam;
type WireBlock = Anthropic.ContentBlockParam;
type WireTool = Anthropic.Tool;
type WireEvent = Anthropic.RawMessageStreamEvent;

export interface AnthropicRequestParts {
  system: string | undefined;
  messages: WireMessage[];
}

export function toAnthropicMessages(messages: ChatMessage[]): AnthropicRequestParts {
  const system: string[] = [];
  const out: { role: 'user' | 'assistant'; content: WireBlock[] }[] = [];
  const append = (role: 'user' | 'assistant', blocks: WireBlock[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: [...blocks] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        append('user', [{ type: 'text', text: message.content }]);
        break;
      case 'assistant': {
        const blocks: WireBlock[] = [];
        if (message.content !== '') blocks.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
        append('assistant', blocks);
        break;
      }
      case 'tool':
        append('user', [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, ...(message.isError ? { is_error: true } : {}) }]);
        break;
    }
  }
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: out };
}

export function toAnthropicTools(tools: ToolDefinition[]): WireTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: { type: 'object', ...tool.parameters } as WireTool['input_schema'],
  }));
}

export function anthropicStopReason(reason: string | null | undefined): StopReason {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  if (reason === 'tool_use') return 'tool_calls';
  if (reason === 'max_tokens') return 'length';
  return 'other';
}

/** Turns raw stream events into Hearth events; tool input JSON is accumulated per content block. */
export class AnthropicStreamAssembler {
  private readonly blocks = new Map<number, { id: string; name: string; json: string }>();
  private inputTokens = 0;
  private outputTokens = 0;
  private stop: string | null | undefined;

  push(event: WireEvent): ChatEvent[] {
    switch (event.type) {
      case 'message_start':
        this.inputTokens = event.message.usage?.input_tokens ?? 0;
        this.outputTokens = event.message.usage?.output_tokens ?? 0;
        return [];
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          const block = event.content_block;
          // Input may arrive whole in the start block (no deltas follow) or as JSON deltas.
          const initial = block.input && Object.keys(block.input as object).length > 0 ? JSON.stringify(block.input) : '';
          this.blocks.set(event.index, { id: block.id, name: block.name, json: initial });
        } else if (event.content_block.type === 'text' && event.content_block.text) {
          return [{ type: 'text', text: event.content_block.text }];
        }
        return [];
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') return event.delta.text ? [{ type: 'text', text: event.delta.text }] : [];
        if (event.delta.type === 'input_json_delta') {
          const block = this.blocks.get(event.index);
          if (block) block.json += event.delta.partial_json;
        }
        return [];
      case 'content_block_stop': {
        const block = this.blocks.get(event.index);
        if (!block) return [];
        this.blocks.delete(event.index);
        return [{ type: 'tool_call', call: { id: block.id, name: block.name, arguments: parseToolArguments(block.json) } }];
      }
      case 'message_delta':
        if (event.usage?.output_tokens !== undefined && event.usage.output_tokens !== null) this.outputTokens = event.usage.output_tokens;
        if (event.usage?.input_tokens) this.inputTokens = event.usage.input_tokens;
        this.stop = event.delta.stop_reason;
        return [];
      default:
        return [];
    }
  }

  finishEvents(): ChatEvent[] {
    return [
      { type: 'usage', usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens } },
      { type: 'stop', reason: anthropicStopReason(this.stop), ...(this.stop ? { raw: this.stop } : {}) },
    ];
  }
}
