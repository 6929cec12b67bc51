import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChatMessage, LlmProvider } from '../../llm/types';

/** What the approval dialog shows of each message, and of the whole prompt. */
export const SHOWN_MESSAGE_CHARS = 1500;
export const SHOWN_PROMPT_CHARS = 6000;
/** A cap on what an upstream may ask for when it asks for more: a request, not a blank cheque. */
export const MAX_SAMPLING_TOKENS = 16_384;

/** An upstream's sampling request as the editor shows it and the active provider runs it. */
export interface SampleRequest {
  server: string;
  /** The prompt as the user reads it before approving: system prompt and messages, truncated. */
  shown: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature?: number;
}

export interface SampleAnswer {
  model: string;
  text: string;
  stopReason: 'endTurn' | 'maxTokens';
}

type Params = CreateMessageRequest['params'];
type Block = Extract<Params['messages'][number]['content'], { type: string }>;

function blockText(block: Block): string {
  return block.type === 'text' ? block.text : `[${block.type}]`;
}

function messageText(message: Params['messages'][number]): string {
  return (Array.isArray(message.content) ? message.content : [message.content]).map((block) => blockText(block as Block)).join('\n');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The request in the provider's terms, with the text the user approves. */
export function sampleRequest(server: string, params: Params): SampleRequest {
  const messages: ChatMessage[] = params.messages.map((message) => ({ role: message.role, content: messageText(message) }));
  if (params.systemPrompt) messages.unshift({ role: 'system', content: params.systemPrompt });
  const shown = clip(messages.map((message) => `${message.role}: ${clip(message.content, SHOWN_MESSAGE_CHARS)}`).join('\n\n'), SHOWN_PROMPT_CHARS);
  return { server, shown, messages, maxTokens: Math.max(1, Math.min(params.maxTokens, MAX_SAMPLING_TOKENS)), temperature: params.temperature };
}

/** One assistant turn of `provider` for an approved request, without tools. */
export async function runSampling(provider: LlmProvider, request: SampleRequest, signal?: AbortSignal): Promise<SampleAnswer> {
  let text = '';
  let stopReason: SampleAnswer['stopReason'] = 'endTurn';
  for await (const event of provider.chat(request.messages, [], { maxTokens: request.maxTokens, temperature: request.temperature }, signal)) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'stop' && event.reason === 'length') stopReason = 'maxTokens';
  }
  return { model: provider.settings.model ?? provider.settings.name, text, stopReason };
}

export function createMessageResult(answer: SampleAnswer): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text: answer.text }, model: answer.model, stopReason: answer.stopReason };
}
