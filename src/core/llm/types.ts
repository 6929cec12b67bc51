/**
 * The one provider interface every chat backend implements (local runner, OpenAI-compatible,
 * cloud_b, the editor's language-model API). Callers (chat view, agents, `hearth ask`) see the same
 * messages and the same stream of events whatever the backend, so backend quirks stay in the
 * provider and its pure conversion functions.
 */
import type { ModelKind } from './modelKind';
import type { ActiveProvider } from './activeProvider';

/** A tool call the model asked for; `arguments` are already parsed from the wire's JSON text. */
export interface ToolCall {
  /** Backends without ids (the local runner) get a generated one so results can be matched. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

/** A tool offered to the model; `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** Normalized reasons; the backend's own word is kept in `raw` for logs. */
export type StopReason = 'stop' | 'tool_calls' | 'length' | 'other';

export type ChatEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'stop'; reason: StopReason; raw?: string };

/** Per-request overrides; anything unset falls back to the provider's settings. */
export interface ChatOptions {
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

export interface ModelInfo {
  /** The model's name as the backend knows it (without the provider prefix). */
  id: string;
  /** Parameter count in billions, from the backend's metadata where it has it. */
  parameterBillions?: number;
  /** Context window in tokens, where the backend reports it. */
  contextLength?: number;
  /** Chat or embedding (modelKind.ts); set by the catalog for every listed model. */
  kind?: ModelKind;
  /** The editor vendor serving it (`copilot`, another extension's), for VS Code's language models. */
  vendor?: string;
}

/**
 * The effective settings of one configured provider (DESIGN.md decision 4, resolved by
 * activeProvider.ts). `apiKey` was resolved when the config loaded; `apiKeyRef` is the raw config value, for messages.
 */
export interface ProviderSettings extends ActiveProvider {
  /** Tests shorten timeouts below a second with this; wins over timeoutSecs when set. */
  timeoutMs?: number;
}

export interface LlmProvider {
  readonly settings: ProviderSettings;
  /** Models this provider can serve right now (queried from the backend). */
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
  /**
   * Streams one assistant turn. Throws LlmError (see errors.ts) for connection, auth, model and
   * timeout failures; the iterator ends after a `stop` event.
   */
  chat(messages: ChatMessage[], tools: ToolDefinition[], options?: ChatOptions, signal?: AbortSignal): AsyncIterable<ChatEvent>;
  /** Parameter count in billions where the backend's metadata has it (size-aware prompts). */
  parameterBillions?(model: string, signal?: AbortSignal): Promise<number | undefined>;
}
