/**
 * Provider type names. The reference's neutral names are canonical; the brand aliases are accepted
 * everywhere a type is (DESIGN.md "Names") and normalised by `canonicalProviderType`.
 */
export const CHAT_PROVIDER_TYPES = ['local_runner', 'cloud_a', 'cloud_b'] as const;
export const HOSTED_OPENAI_COMPATIBLE_TYPES = ['openrouter', 'zai', 'cohere', 'vertexai'] as const;
export const LLM_PROVIDER_TYPES = [
  ...CHAT_PROVIDER_TYPES,
  'custom',
  ...HOSTED_OPENAI_COMPATIBLE_TYPES,
  'githubcopilot',
] as const;
export const EMBEDDING_PROVIDER_TYPES = [
  'local_cpu',
  'local_runner',
  'cloud_a',
  'cloud_b',
  'local_gpu_a',
  'local_gpu_b',
] as const;

export const PROVIDER_TYPE_ALIASES = { ollama: 'local_runner', openai: 'cloud_a', anthropic: 'cloud_b' } as const;
export const PROVIDER_TYPE_ALIAS_NAMES = Object.keys(PROVIDER_TYPE_ALIASES) as (keyof typeof PROVIDER_TYPE_ALIASES)[];

export type ChatProviderType = (typeof CHAT_PROVIDER_TYPES)[number];
export type LlmProviderType = (typeof LLM_PROVIDER_TYPES)[number];
export type EmbeddingProviderType = (typeof EMBEDDING_PROVIDER_TYPES)[number];
export type ProviderTypeAlias = keyof typeof PROVIDER_TYPE_ALIASES;

/** Maps `ollama`/`openai`/`anthropic` to their canonical names; other names pass through. */
export function canonicalProviderType(type: string): string {
  return (PROVIDER_TYPE_ALIASES as Record<string, string>)[type] ?? type;
}

export function canonicalLlmType(type: string): LlmProviderType {
  return canonicalProviderType(type) as LlmProviderType;
}

export function canonicalEmbeddingType(type: string): EmbeddingProviderType {
  return canonicalProviderType(type) as EmbeddingProviderType;
}

/** The local runner's own default address; LOCAL_RUNNER_HOST without a port takes this port (envOverrides.ts). */
export const LOCAL_RUNNER_DEFAULT_URL = 'http://127.0.0.1:11434';
/** cloud_a's API, for chat and embeddings alike. */
const CLOUD_A_DEFAULT_URL = 'https://api.openai.com/v1';

/** Default endpoint and model per LLM provider type (DESIGN.md "Names"). `custom` has none. */
export const LLM_PROVIDER_DEFAULTS: Record<LlmProviderType, { endpoint?: string; model?: string }> = {
  local_runner: { endpoint: LOCAL_RUNNER_DEFAULT_URL, model: 'llama3.2' },
  cloud_a: { endpoint: CLOUD_A_DEFAULT_URL, model: 'gpt-4o' },
  cloud_b: { endpoint: 'https://api.anthropic.com', model: 'claude-sonnet-4-5-20250929' },
  custom: {},
  openrouter: { endpoint: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4o' },
  zai: { endpoint: 'https://api.z.ai/api/coding/paas/v4', model: 'glm-4.7' },
  cohere: { endpoint: 'https://api.cohere.ai/compatibility/v1', model: 'command-r-plus' },
  vertexai: { endpoint: 'https://generativelanguage.googleapis.com/v1beta/openai', model: 'gemini-2.5-flash' },
  githubcopilot: {},
};

/**
 * Default model per embedding provider type (issue 4); GPU types and cloud_b have none. local_cpu's
 * is a model2vec static model (DESIGN.md decision 26, issue 31): a 10,000-note vault indexes in
 * about a minute on 2 cores, where bge-small (`model = "Xenova/bge-small-en-v1.5"`) took hours.
 */
export const EMBEDDING_PROVIDER_DEFAULTS: Record<EmbeddingProviderType, { model?: string; apiUrl?: string; maxConcurrent: number }> = {
  local_cpu: { model: 'minishlab/potion-base-8M', maxConcurrent: 1 },
  local_runner: { model: 'nomic-embed-text', apiUrl: LOCAL_RUNNER_DEFAULT_URL, maxConcurrent: 2 },
  cloud_a: { model: 'text-embedding-3-small', apiUrl: CLOUD_A_DEFAULT_URL, maxConcurrent: 4 },
  cloud_b: { maxConcurrent: 4 },
  local_gpu_a: { maxConcurrent: 1 },
  local_gpu_b: { maxConcurrent: 1 },
};

/** Environment variables holding keys/hosts, canonical first, then the accepted fallbacks. */
export const PROVIDER_ENV = {
  cloud_a: ['CLOUD_A_API_KEY', 'OPENAI_API_KEY'],
  cloud_b: ['CLOUD_B_API_KEY', 'ANTHROPIC_API_KEY'],
  local_runner_host: ['LOCAL_RUNNER_HOST', 'OLLAMA_HOST'],
  kiln_path: ['HEARTH_KILN_PATH'],
} as const;

/**
 * Environment variables that hold a provider type's key when its table sets no `api_key`, canonical
 * first. The further hosted types read `<TYPE>_API_KEY`, the name their own tools use.
 */
export function providerKeyVariables(type: string): readonly string[] {
  const canonical = canonicalProviderType(type);
  if (canonical === 'cloud_a') return PROVIDER_ENV.cloud_a;
  if (canonical === 'cloud_b') return PROVIDER_ENV.cloud_b;
  if ((HOSTED_OPENAI_COMPATIBLE_TYPES as readonly string[]).includes(canonical)) return [`${canonical.toUpperCase()}_API_KEY`];
  return [];
}
