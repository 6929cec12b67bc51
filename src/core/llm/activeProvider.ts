/**
 * Which provider chat uses, with every value resolved (DESIGN.md decision 4). Shared by the status
 * bar, the providers and the CLI so they can never disagree about "the active model".
 */
import type { ConfigSource } from '../config/problem';
import type { HearthConfig, LlmProviderConfig } from '../config/schema';
import { canonicalLlmType, LLM_PROVIDER_DEFAULTS, providerKeyVariables, type LlmProviderType } from '../config/providerTypes';
import { IMPLICIT_PROVIDER_NAME, NO_PROVIDER_KEYS, type ProviderKeys } from '../config/providerKeys';

/**
 * The active provider, fully resolved. `model`/`endpoint` are undefined only where the type has
 * no default and none was configured (`custom`'s model, `githubcopilot`).
 */
export interface ActiveProvider {
  /** The `[llm.providers.<name>]` label, or `chat` for the implicit provider. */
  name: string;
  type: LlmProviderType;
  model: string | undefined;
  endpoint: string | undefined;
  temperature: number;
  maxTokens: number;
  timeoutSecs: number;
  /** The raw `api_key` value (`{env:X}`, `{secret:X}`, a bare name or a literal): where the key comes from, for messages. */
  apiKeyRef: string | undefined;
  /** Environment variables that supply the key when `apiKeyRef` is unset (canonical first), for messages. */
  apiKeyEnv: readonly string[];
  /** The key itself, resolved when the config loaded (config/providerKeys.ts); providers never read a variable. */
  apiKey: string | undefined;
  /** True when there are no `[llm.providers]` and `[chat]` describes the provider. */
  implicit: boolean;
}

/** `[chat]` keys that, when set explicitly, override the provider table's values for chat. */
const CHAT_OVERRIDES = ['model', 'endpoint', 'temperature', 'max_tokens', 'timeout_secs'] as const;

/**
 * Resolves the active provider. With `[llm.providers]`, `[llm].default` names it (an unknown or
 * missing default falls back to the first provider, so a typo degrades instead of breaking chat;
 * the loader reports the typo). Without providers, `[chat]` is the implicit provider `chat`.
 * `sources` (dotted key → source) tells keys set in a file from defaults and env overrides.
 */
export function activeProvider(config: HearthConfig, sources: Record<string, ConfigSource> = {}, keys: ProviderKeys = NO_PROVIDER_KEYS): ActiveProvider {
  const providers = Object.entries(config.llm.providers);
  if (providers.length === 0) return implicitProvider(config, keys);

  const chosen = providers.find(([name]) => name === config.llm.default) ?? providers[0];
  const [name, table] = chosen;
  const resolved = fromTable(name, table, keys);
  const chat = config.chat;
  for (const key of CHAT_OVERRIDES) {
    const source = sources[`chat.${key}`];
    // Only the user's own [chat] keys count: an env-sourced one (LOCAL_RUNNER_HOST fills
    // chat.endpoint for the implicit local runner) already reached the matching provider tables.
    if (source !== 'global' && source !== 'workspace') continue;
    if (chat[key] === undefined) continue;
    if (key === 'model') resolved.model = chat.model;
    else if (key === 'endpoint') resolved.endpoint = chat.endpoint;
    else if (key === 'temperature') resolved.temperature = chat.temperature;
    else if (key === 'max_tokens') resolved.maxTokens = chat.max_tokens;
    else resolved.timeoutSecs = chat.timeout_secs;
  }
  return resolved;
}

function fromTable(name: string, table: LlmProviderConfig, keys: ProviderKeys): ActiveProvider {
  const type = canonicalLlmType(table.type);
  const defaults = LLM_PROVIDER_DEFAULTS[type] ?? {};
  return {
    name,
    type,
    model: table.default_model ?? defaults.model,
    endpoint: table.endpoint ?? defaults.endpoint,
    temperature: table.temperature,
    maxTokens: table.max_tokens,
    timeoutSecs: table.timeout_secs,
    apiKeyRef: table.api_key,
    apiKeyEnv: providerKeyVariables(type),
    apiKey: keys.llm[name],
    implicit: false,
  };
}

function implicitProvider(config: HearthConfig, keys: ProviderKeys): ActiveProvider {
  const chat = config.chat;
  const type = canonicalLlmType(chat.provider);
  const defaults = LLM_PROVIDER_DEFAULTS[type] ?? {};
  return {
    name: IMPLICIT_PROVIDER_NAME,
    type,
    model: chat.model ?? defaults.model,
    endpoint: chat.endpoint ?? defaults.endpoint,
    temperature: chat.temperature,
    maxTokens: chat.max_tokens,
    timeoutSecs: chat.timeout_secs,
    apiKeyRef: undefined,
    apiKeyEnv: providerKeyVariables(type),
    apiKey: keys.llm[IMPLICIT_PROVIDER_NAME],
    implicit: true,
  };
}

/**
 * Every configured provider, resolved like the active one (the model list and switcher query them
 * all). The active provider is included with its `[chat]` overrides applied.
 */
export function configuredProviders(config: HearthConfig, sources: Record<string, ConfigSource> = {}, keys: ProviderKeys = NO_PROVIDER_KEYS): ActiveProvider[] {
  const active = activeProvider(config, sources, keys);
  if (active.implicit) return [active];
  return Object.entries(config.llm.providers).map(([name, table]) => (name === active.name ? active : fromTable(name, table, keys)));
}
