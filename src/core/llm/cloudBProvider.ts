/** `cloud_b` through `@anthropic-ai/sdk` (Messages API, streamed). */
import type Anthropic from '@anthropic-ai/sdk';
import { LLM_PROVIDER_DEFAULTS } from '../config/providerTypes';
import { DEFAULT_TEMPERATURE } from '../config/schema';
import { requireApiKey } from './apiKey';
import { AnthropicStreamAssembler, toAnthropicMessages, toAnthropicTools } from './anthropicConvert';
import { parameterBillionsFromName } from './modelSize';
import type { ProviderDeps } from './providerDeps';
import { guarded, guardedStream } from './requestGuard';
import type { ChatEvent, ChatMessage, ChatOptions, LlmProvider, ModelInfo, ProviderSettings, ToolDefinition } from './types';

/** cloud_b accepts temperatures up to 1.0; the config allows 2.0 for the others, so clamp. */
export const CLOUD_B_MAX_TEMPERATURE = 1;

/**
 * cloud_b has deprecated `temperature` (the SDK no longer types it) and newer models may refuse it,
 * so it is sent only when the user chose a value other than the default; then clamped to 1.
 */
export function cloudBTemperature(temperature: number): { temperature?: number } {
  if (temperature === DEFAULT_TEMPERATURE) return {};
  return { temperature: Math.min(temperature, CLOUD_B_MAX_TEMPERATURE) };
}

export class CloudBProvider implements LlmProvider {
  readonly endpoint: string;

  constructor(
    readonly settings: ProviderSettings,
    private readonly deps: ProviderDeps,
  ) {
    this.endpoint = settings.endpoint ?? LLM_PROVIDER_DEFAULTS.cloud_b.endpoint!;
  }

  private async client(): Promise<Anthropic> {
    const apiKey = requireApiKey(this.settings);
    // The SDK loads with the first request, not with the extension (issue 15: cold paths).
    const { default: AnthropicClient } = await import('@anthropic-ai/sdk');
    return new AnthropicClient({ baseURL: this.endpoint, apiKey, maxRetries: this.deps.maxRetries ?? 1, timeout: 24 * 3600_000 });
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const client = await this.client();
    return guarded(this.settings, signal, { redactor: this.deps.redactor, endpoint: this.endpoint, operation: 'list' }, async (s) => {
      const models: ModelInfo[] = [];
      for await (const model of client.models.list({}, { signal: s })) models.push({ id: model.id });
      return models.sort((a, b) => a.id.localeCompare(b.id));
    });
  }

  async parameterBillions(model: string): Promise<number | undefined> {
    return parameterBillionsFromName(model);
  }

  chat(messages: ChatMessage[], tools: ToolDefinition[], options: ChatOptions = {}, signal?: AbortSignal): AsyncIterable<ChatEvent> {
    const model = options.model ?? this.settings.model ?? LLM_PROVIDER_DEFAULTS.cloud_b.model!;
    const self = this;
    return guardedStream(this.settings, signal, { redactor: this.deps.redactor, endpoint: this.endpoint, operation: 'chat', model }, async function* (s) {
      const client = await self.client();
      const { system, messages: wire } = toAnthropicMessages(messages);
      const body = {
        model,
        max_tokens: options.maxTokens ?? self.settings.maxTokens,
        ...cloudBTemperature(options.temperature ?? self.settings.temperature),
        ...(system ? { system } : {}),
        messages: wire,
        ...(tools.length > 0 ? { tools: toAnthropicTools(tools) } : {}),
        stream: true as const,
      };
      const stream = await client.messages.create(body as Anthropic.MessageCreateParamsStreaming, { signal: s });
      const assembler = new AnthropicStreamAssembler();
      for await (const event of stream) yield* assembler.push(event);
      yield* assembler.finishEvents();
    });
  }
}
