/**
 * Which of Hearth's providers the editor is offered as language models (vendor `hearth`, ids
 * `provider/model`), decided without the editor: not the editor's own models (`githubcopilot`
 * would offer VS Code its own models back), and not a provider whose endpoint or key waits for
 * Workspace Trust (its defaults would send the conversation somewhere the user did not choose).
 */
import type { ProviderSettings } from './types';

/** Whether a provider's endpoint or key (its table, or `[chat]` for the implicit one) waits for trust. */
export function waitsForTrust(provider: Pick<ProviderSettings, 'name' | 'implicit'>, withheld: readonly { keyPath: string }[]): boolean {
  return withheld.some(({ keyPath }) => keyPath === `llm.providers.${provider.name}` || keyPath.startsWith(`llm.providers.${provider.name}.`) || (provider.implicit && keyPath.startsWith('chat.')));
}

/** The providers to offer, in configuration order. */
export function offeredProviders<T extends Pick<ProviderSettings, 'name' | 'implicit' | 'type'>>(providers: readonly T[], withheld: readonly { keyPath: string }[]): T[] {
  return providers.filter((p) => p.type !== 'githubcopilot' && !waitsForTrust(p, withheld));
}

/** `provider/model` → its parts (the model may contain `/` itself: OpenRouter's `vendor/model`). */
export function splitOfferedModelId(id: string): { provider: string; model: string } | undefined {
  const slash = id.indexOf('/');
  if (slash <= 0 || slash === id.length - 1) return undefined;
  return { provider: id.slice(0, slash), model: id.slice(slash + 1) };
}
