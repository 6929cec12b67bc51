/**
 * API keys for chat providers (DESIGN.md decision 2): the key was resolved when the config loaded
 * (config/providerKeys.ts: the `api_key` reference, else the type's key variables) and arrives in
 * the settings; nothing here reads the environment or the secret store. Hosted types without a key
 * fail with MissingSecretError, which names the provider and the variable to set.
 */
import { MissingSecretError, parseSecretReference } from '../config/resolveSecret';
import type { ProviderSettings } from './types';

/** Types that run without a key: the local runner, a custom (often local) server, the editor's models. */
const KEYLESS_TYPES = new Set(['local_runner', 'custom', 'githubcopilot']);

/** The provider's resolved key; undefined for a keyless type without one; MissingSecretError for a hosted type without one. */
export function requireApiKey(settings: ProviderSettings): string | undefined {
  if (settings.apiKey !== undefined && settings.apiKey !== '') return settings.apiKey;
  if (KEYLESS_TYPES.has(settings.type)) return undefined;
  const configured = settings.apiKeyRef !== undefined && settings.apiKeyRef.trim() !== '';
  throw new MissingSecretError(settings.name, settings.type, configured ? parseSecretReference(settings.apiKeyRef!) : undefined, !configured && settings.implicit);
}

/** Says where the key came from, for "verify that … holds the key" (never the key itself). */
export function keySourceHint(settings: ProviderSettings): string {
  if (settings.apiKeyRef !== undefined && settings.apiKeyRef.trim() !== '') {
    const ref = parseSecretReference(settings.apiKeyRef);
    if (ref.kind === 'env' || ref.kind === 'bare') return `the environment variable ${ref.name}`;
    if (ref.kind === 'secret') return `the secret "${ref.name}" (Hearth: Set API Key)`;
    return `api_key in [llm.providers.${settings.name}]`;
  }
  if (settings.apiKeyEnv.length > 0) return `the environment variable ${settings.apiKeyEnv.join(' (or ')}${settings.apiKeyEnv.length > 1 ? ')' : ''}`;
  return `api_key in [llm.providers.${settings.name}]`;
}
