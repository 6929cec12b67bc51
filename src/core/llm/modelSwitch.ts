/**
 * A model switch as the user types it (`:model`, `hearth ask --model`, the switcher's free text),
 * checked before anything changes. `nosuch/x` used to become a model named "nosuch/x" of the
 * active provider, and the server's "model not found" then pointed away from the typo. Now a prefix
 * that names no configured provider is an error listing the configured ones, closest first,
 * unless the active provider lists a model by that whole name (OpenRouter's `vendor/model`).
 * When that list cannot be fetched, the switch fails too, saying why.
 */
import { editDistance } from '../config/didYouMean';
import { LlmError } from './errors';
import type { ModelCatalog } from './modelCatalog';
import type { ModelSelection } from './modelSelection';
import type { LlmProvider, ProviderSettings } from './types';

export interface ModelSwitchDeps {
  selection: ModelSelection;
  catalog: ModelCatalog;
  provider(settings: ProviderSettings): LlmProvider;
}

/** Configured provider names ordered by closeness to `typed` (ties keep configuration order). */
export function closestProviders(typed: string, names: readonly string[]): string[] {
  return names
    .map((name, index) => ({ name, index, distance: editDistance(typed, name) }))
    .sort((a, b) => a.distance - b.distance || a.index - b.index)
    .map((entry) => entry.name);
}

/** Switches the session to `id` when it names a usable provider/model; throws and changes nothing otherwise. */
export async function switchModelChecked(deps: ModelSwitchDeps, id: string, signal?: AbortSignal): Promise<ProviderSettings> {
  await checkModelId(deps, id, signal);
  return deps.selection.switchTo(id.trim());
}

/** Throws LlmError `llm.unknown_provider` when `id`'s prefix names no provider and the active one lists no such model. */
export async function checkModelId(deps: ModelSwitchDeps, id: string, signal?: AbortSignal): Promise<void> {
  const trimmed = id.trim();
  const slash = trimmed.indexOf('/');
  if (slash > 0) {
    const prefix = trimmed.slice(0, slash);
    const names = deps.selection.providers().map((p) => p.name);
    if (!names.includes(prefix)) {
      const active = deps.selection.current();
      const listed = await deps.catalog.forProvider(deps.provider(active), signal ? { signal } : {});
      const unknown = `no provider '${prefix}' — configured: ${closestProviders(prefix, names).join(', ')}`;
      if (listed.error) {
        throw new LlmError('llm.unknown_provider', `${unknown} (and ${active.name}'s model list, which might name "${trimmed}", could not be fetched: ${listed.error.message})`, prefix);
      }
      if (!listed.models.some((m) => m.id === trimmed)) throw new LlmError('llm.unknown_provider', unknown, prefix);
    }
  }
}
