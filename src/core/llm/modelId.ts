/**
 * `provider/model` ids (DESIGN.md decision 5). Model names may themselves contain slashes
 * (`openai/gpt-4o` on openrouter, `hf.co/…` on the local runner), so the part before the first
 * slash is a provider only when a provider of that name is configured; otherwise the whole id is
 * a model of the current provider, as is a bare `name`.
 */
export interface ModelRef {
  provider: string;
  /** Undefined: the provider's own default model (`provider/`). */
  model?: string;
}

export function parseModelId(id: string, providerNames: readonly string[], currentProvider: string): ModelRef {
  const trimmed = id.trim();
  const slash = trimmed.indexOf('/');
  if (slash > 0) {
    const prefix = trimmed.slice(0, slash);
    if (providerNames.includes(prefix)) {
      const model = trimmed.slice(slash + 1).trim();
      return { provider: prefix, ...(model ? { model } : {}) };
    }
  }
  return { provider: currentProvider, ...(trimmed ? { model: trimmed } : {}) };
}

export function formatModelId(provider: string, model: string | undefined): string {
  return `${provider}/${model ?? ''}`;
}
