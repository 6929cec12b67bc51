/**
 * `cloud_a`, `custom`, `openrouter`, `zai`, `cohere` and `vertexai`: every OpenAI-compatible
 * chat-completions endpoint through the `openai` package, with `baseURL` = the endpoint.
 */
import type OpenAI from 'openai';
import { LLM_PROVIDER_DEFAULTS } from '../config/providerTypes';
import { requireApiKey } from './apiKey';
import { LlmError } from './errors';
import { OpenAiStreamAssembler, toOpenAiMessages, toOpenAiTools } from './openaiConvert';
import { parameterBillionsFromName } from './modelSize';
import type { ProviderDeps } from './providerDeps';
import { guarded, guardedStream } from './requestGuard';
import type { ChatEvent, ChatMessage, ChatOptions, LlmProvider, ModelInfo, ProviderSettings, ToolDefinition } from './types';

/** Sent when a keyless server (custom) needs none: the SDK refuses an empty key. */
const NO_KEY = 'not-needed';

export class OpenAiCompatibleProvider implements LlmProvider {
  readonly endpoint: string;

  constructor(
    readonly settings: ProviderSettings,
    private readonly deps: ProviderDeps,
  ) {
    const endpoint = settings.endpoint ?? LLM_PROVIDER_DEFAULTS[settings.type]?.endpoint;
    if (!endpoint) {
      throw new LlmError('llm.missing_endpoint', `provider "${settings.name}" (${settings.type}) needs an endpoint: set endpoint in [llm.providers.${settings.name}].`, settings.name);
    }
    this.endpoint = endpoint;
  }

  private async client(): Promise<OpenAI> {
    const apiKey = requireApiKey(this.settings);
    // Retries and timeouts are ours (RequestGuard), so the SDK's must not stack on top.
    // The SDK loads with the first request, not with the extension (issue 15: cold paths).
    const { default: OpenAIClient } = await import('openai');
    return new OpenAIClient({ baseURL: this.endpoint, apiKey: apiKey ?? NO_KEY, maxRetries: this.deps.maxRetries ?? 1, timeout: 24 * 3600_000 });
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const client = await this.client();
    return guarded(this.settings, signal, { redactor: this.deps.redactor, endpoint: this.endpoint, operation: 'list' }, async (s) => {
      const models: ModelInfo[] = [];
      for await (const model of client.models.list({ signal: s })) {
        const parameterBillions = parameterBillionsFromName(model.id);
        models.push({ id: model.id, ...(parameterBillions !== undefined ? { parameterBillions } : {}) });
      }
      return models.sort((a, b) => a.id.localeCompare(b.id));
    });
  }

  async parameterBillions(model: string): Promise<number | undefined> {
    return parameterBillionsFromName(model);
  }

  chat(messages: ChatMessage[], tools: ToolDefinition[], options: ChatOptions = {}, signal?: AbortSignal): AsyncIterable<ChatEvent> {
    const model = options.model ?? this.settings.model;
    const self = this;
    return guardedStream(this.settings, signal, { redactor: this.deps.redactor, endpoint: this.endpoint, operation: 'chat', model }, async function* (s) {
      if (!model) throw new LlmError('llm.model_not_found', `provider "${self.settings.name}" has no model: set default_model in [llm.providers.${self.settings.name}] or pick one with \`hearth models\`.`, self.settings.name);
      const client = await self.client();
      const maxTokens = options.maxTokens ?? self.settings.maxTokens;
      const stream = await client.chat.completions.create(
        {
          model,
          messages: toOpenAiMessages(messages),
          ...(tools.length > 0 ? { tools: toOpenAiTools(tools) } : {}),
          temperature: options.temperature ?? self.settings.temperature,
          // cloud_a's newer models accept only max_completion_tokens; compatible servers know max_tokens.
          ...(self.settings.type === 'cloud_a' ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal: s },
      );
      const assembler = new OpenAiStreamAssembler();
      for await (const chunk of stream) yield* assembler.push(chunk);
      yield* assembler.finishEvents();
    });
  }
}
