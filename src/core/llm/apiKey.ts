/**
 * API keys for chat providers (DESIGN.md decision 2): the configured `api_key` reference is resolved
 * at use; without one, the type's environment variables (canonical first, then the accepted
 * fallbacks) are read. Hosted types without any key fail with MissingSecretError, which names the
 * provider and the variable to set.
 */
import { MissingSecretError, parseSecretReference, resolveSecret, type ResolveSecretContext } from '../config/resolveSecret';
import type { ProviderSettings } from './types';

/** Types that run without a key: the local runner, a custom (often local) server, the editor's models. */
const KEYLESS_TYPES = new Set(['local_runner', 'custom', 'githubcopilot']);

export async function resolveApiKey(settings: ProviderSettings, ctx: ResolveSecretContext): Promise<string | undefined> {
  if (settings.apiKeyRef !== undefined && settings.apiKeyRef.trim() !== '') {
    const key = await resolveSecret(settings.apiKeyRef, ctx);
    if (key === undefined && !KEYLESS_TYPES.has(settings.type)) {
      throw new MissingSecretError(settings.name, settings.type, parseSecretReference(settings.apiKeyRef));
    }
    return key;
  }
  for (const name of settings.apiKeyEnv) {
    const value = ctx.env[name];
    if (value) {
      ctx.redactor?.add(value);
      return value;
    }
  }
  if (KEYLESS_TYPES.has(settings.type)) return undefined;
  throw new MissingSecretError(settings.name, settings.type, undefined, settings.implicit);
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
