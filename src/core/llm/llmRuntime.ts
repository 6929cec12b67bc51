/**
 * The chat-model services one host needs, wired once: the session's model selection, the model
 * catalog over every configured provider, and provider construction with the host's factories
 * (the editor passes one for githubcopilot). The editor and the CLI each build one of these; the
 * chat view, `:model` and the agents use it instead of creating providers themselves.
 */
import { createProvider, type ProviderFactories } from './createProvider';
import { ModelCatalog, type ModelCatalogOptions } from './modelCatalog';
import { ModelSelection, type ConfigSnapshot } from './modelSelection';
import type { ProviderDeps } from './providerDeps';
import { isSmallModel, parameterBillionsFromName } from './modelSize';
import type { LlmProvider, ProviderSettings } from './types';

export class LlmRuntime {
  readonly selection: ModelSelection;
  readonly catalog: ModelCatalog;
  /** Providers keep per-model metadata caches (the runner's num_ctx), so they are reused while their settings hold. */
  private readonly providers = new Map<string, LlmProvider>();

  constructor(
    snapshot: () => ConfigSnapshot,
    private readonly deps: ProviderDeps,
    private readonly factories: ProviderFactories = {},
    catalogOptions: ModelCatalogOptions = {},
  ) {
    this.selection = new ModelSelection(snapshot);
    this.catalog = new ModelCatalog(() => this.selection.providers().map((settings) => this.provider(settings)), catalogOptions);
  }

  /** The provider for `settings` (default: the current selection). */
  provider(settings: ProviderSettings = this.selection.current()): LlmProvider {
    const key = JSON.stringify(settings);
    let provider = this.providers.get(key);
    if (!provider) {
      provider = createProvider(settings, this.deps, this.factories);
      this.providers.set(key, provider);
    }
    return provider;
  }

  /**
   * Parameter count (billions) of a provider's model: the backend's metadata where it has it
   * (the local runner's /api/show), else the name; undefined when unknown (treated as large).
   */
  async parameterBillions(settings: ProviderSettings = this.selection.current(), signal?: AbortSignal): Promise<number | undefined> {
    if (!settings.model) return undefined;
    const provider = this.provider(settings);
    return (await provider.parameterBillions?.(settings.model, signal)) ?? parameterBillionsFromName(settings.model);
  }

  /** Size-aware prompts (spec 2.3): true for a known count under 4 B. */
  async isSmallModel(settings: ProviderSettings = this.selection.current(), signal?: AbortSignal): Promise<boolean> {
    return isSmallModel(await this.parameterBillions(settings, signal));
  }
}
