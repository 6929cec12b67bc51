/**
 * `local_runner` through the `ollama` package. The context window (`num_ctx`) is taken from the
 * model's own metadata (`/api/show`), because the runner's small default silently truncates long
 * system prompts; it is capped (MAX_NUM_CTX) so a 128k-context model does not reserve gigabytes of
 * KV cache for a chat that never needs it.
 */
import { modelKind } from './modelKind';
import { randomUUID } from 'node:crypto';
import type { Ollama, ShowResponse } from 'ollama';
import { LLM_PROVIDER_DEFAULTS } from '../config/providerTypes';
import { requireApiKey } from './apiKey';
import { OllamaStreamAssembler, toOllamaMessages, toOllamaTools } from './ollamaConvert';
import { modelParameterBillions } from './modelSize';
import type { ProviderDeps } from './providerDeps';
import { guarded, guardedStream } from './requestGuard';
import type { ChatEvent, ChatMessage, ChatOptions, LlmProvider, ModelInfo, ProviderSettings, ToolDefinition } from './types';

export const MAX_NUM_CTX = 32768;

interface ModelMetadata {
  contextLength?: number;
  parameterSize?: string;
}

/**
 * The runner's address: the endpoint config resolved (an explicit one, else LOCAL_RUNNER_HOST /
 * OLLAMA_HOST applied once by config/envOverrides.ts), else loopback:11434.
 */
export function localRunnerHost(settings: ProviderSettings): string {
  return settings.endpoint ?? LLM_PROVIDER_DEFAULTS.local_runner.endpoint!;
}

/** The `<arch>.context_length` entry of `/api/show`'s model_info (a plain object on the wire). */
export function contextLengthFromShow(show: Pick<ShowResponse, 'model_info'>): number | undefined {
  const info = show.model_info as unknown as Record<string, unknown> | undefined;
  if (!info || typeof info !== 'object') return undefined;
  for (const [key, value] of Object.entries(info)) if (key.endsWith('.context_length') && typeof value === 'number' && value > 0) return value;
  return undefined;
}

export class LocalRunnerProvider implements LlmProvider {
  readonly host: string;
  /** Per model; metadata does not change while the runner runs. */
  private readonly metadata = new Map<string, Promise<ModelMetadata>>();

  constructor(
    readonly settings: ProviderSettings,
    private readonly deps: ProviderDeps,
  ) {
    this.host = localRunnerHost(settings);
  }

  private async client(signal: AbortSignal): Promise<Ollama> {
    // A runner behind an authenticating proxy (or a hosted one) takes a bearer key; most need none.
    const key = requireApiKey(this.settings);
    // Loaded when first used, like the other providers' SDKs (not at every start of the editor or CLI).
    const { Ollama } = await import('ollama');
    return new Ollama({
      host: this.host,
      ...(key ? { headers: { Authorization: `Bearer ${key}` } } : {}),
      // The package has no per-request signal; a fetch wrapper binds ours so timeouts abort the socket.
      fetch: (input, init) => fetch(input, { ...init, signal }),
    });
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    return guarded(this.settings, signal, { redactor: this.deps.redactor, endpoint: this.host, operation: 'list' }, async (s) => {
      const response = await (await this.client(s)).list();
      return response.models.map((m) => {
        const parameterBillions = modelParameterBillions(m.name, m.details?.parameter_size);
        return { id: m.name, kind: modelKind(m.name, m.details?.family), ...(parameterBillions !== undefined ? { parameterBillions } : {}) };
      });
    });
  }

  /** `/api/show` once per model; failures are not cached (the model may be pulled meanwhile). */
  private modelMetadata(model: string, signal: AbortSignal): Promise<ModelMetadata> {
    let pending = this.metadata.get(model);
    if (!pending) {
      pending = this.client(signal)
        .then((client) => client.show({ model }))
        .then((show) => ({ contextLength: contextLengthFromShow(show), parameterSize: show.details?.parameter_size }));
      pending.catch(() => this.metadata.delete(model));
      this.metadata.set(model, pending);
    }
    return pending;
  }

  async parameterBillions(model: string, signal?: AbortSignal): Promise<number | undefined> {
    let size: string | undefined;
    try {
      size = (await guarded(this.settings, signal, { redactor: this.deps.redactor, endpoint: this.host, operation: 'list', model }, (s) => this.modelMetadata(model, s))).parameterSize;
    } catch {
      // Metadata is a refinement; the name still gives an answer.
    }
    return modelParameterBillions(model, size);
  }

  /** The num_ctx to request: the model's context length, capped; undefined leaves the runner's choice. */
  async numCtx(model: string, signal: AbortSignal): Promise<number | undefined> {
    try {
      const { contextLength } = await this.modelMetadata(model, signal);
      return contextLength ? Math.min(contextLength, MAX_NUM_CTX) : undefined;
    } catch (error) {
      // An unknown model or a dead runner fails the chat request itself with the right error.
      this.deps.log?.child('local-runner').debug(`no metadata for ${model}: ${(error as Error)?.message}`);
      return undefined;
    }
  }

  chat(messages: ChatMessage[], tools: ToolDefinition[], options: ChatOptions = {}, signal?: AbortSignal): AsyncIterable<ChatEvent> {
    const model = options.model ?? this.settings.model ?? LLM_PROVIDER_DEFAULTS.local_runner.model!;
    const self = this;
    return guardedStream(this.settings, signal, { redactor: this.deps.redactor, endpoint: this.host, operation: 'chat', model }, async function* (s) {
      const numCtx = await self.numCtx(model, s);
      const stream = await (await self.client(s)).chat({
        model,
        messages: toOllamaMessages(messages),
        ...(tools.length > 0 ? { tools: toOllamaTools(tools) } : {}),
        stream: true,
        options: {
          temperature: options.temperature ?? self.settings.temperature,
          num_predict: options.maxTokens ?? self.settings.maxTokens,
          ...(numCtx ? { num_ctx: numCtx } : {}),
        },
      });
      const assembler = new OllamaStreamAssembler(() => `call_${randomUUID().slice(0, 8)}`);
      for await (const part of stream) yield* assembler.push(part);
    });
  }
}
