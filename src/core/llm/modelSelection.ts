/**
 * The model chat uses right now: the configuration's active provider (activeProvider.ts) plus a
 * session override set by "Switch Model", `:model` or `hearth ask --model`. The override lasts for
 * the session; `persist` writes it into the workspace config without losing comments:
 *
 * - with `[llm.providers]`: `[llm].default = "<provider>"` and that provider's `default_model`;
 *   when `[chat].model` is set in a file it would override the table for chat (decision 4), so it
 *   is written too, or the persisted choice would not take effect;
 * - with the implicit `[chat]` provider (no `[llm.providers]`), there is only one provider, so
 *   persist writes `[chat].model`.
 */
import type { ConfigSource } from '../config/problem';
import type { HearthConfig } from '../config/schema';
import { setConfigValue } from '../config/edit';
import type { ProviderKeys } from '../config/providerKeys';
import { Emitter } from '../lifecycle/emitter';
import { activeProvider, configuredProviders } from './activeProvider';
import { LlmError } from './errors';
import { formatModelId, parseModelId, type ModelRef } from './modelId';
import type { ProviderSettings } from './types';

export interface ConfigSnapshot {
  config: HearthConfig;
  sources: Record<string, ConfigSource>;
  /** The providers' keys, resolved when this config loaded (LoadedConfig.keys); NO_PROVIDER_KEYS for none. */
  keys: ProviderKeys;
}

export interface PersistResult {
  file: string;
  /** Dotted keys written, e.g. `llm.default`. */
  keys: string[];
}

export class ModelSelection {
  private sessionOverride: ModelRef | undefined;
  private readonly _onDidChange = new Emitter<ProviderSettings>();
  /** Fires with the new selection when the session switches model or clears its override. */
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly snapshot: () => ConfigSnapshot) {}

  /** The session override, if any (undefined: the configuration decides). */
  get override(): ModelRef | undefined {
    return this.sessionOverride;
  }

  /** Every configured provider, the selected one carrying the override's model. */
  providers(): ProviderSettings[] {
    const { config, sources, keys } = this.snapshot();
    const current = this.current();
    return configuredProviders(config, sources, keys).map((p) => (p.name === current.name ? current : p));
  }

  /** The effective provider and model; an override whose provider vanished from the config is ignored. */
  current(): ProviderSettings {
    const { config, sources, keys } = this.snapshot();
    const active = activeProvider(config, sources, keys);
    const override = this.sessionOverride;
    if (!override) return active;
    const base = override.provider === active.name ? active : configuredProviders(config, sources, keys).find((p) => p.name === override.provider);
    if (!base) return active;
    return override.model ? { ...base, model: override.model } : base;
  }

  currentId(): string {
    const current = this.current();
    return formatModelId(current.name, current.model);
  }

  /** Switches for the session: `provider/model`, `provider/` (its default model) or a bare model name. */
  switchTo(id: string): ProviderSettings {
    const { config, sources } = this.snapshot();
    const providers = configuredProviders(config, sources);
    const names = providers.map((p) => p.name);
    // The status bar names the implicit [chat] provider by its type ("local_runner/llama3.2"): what it shows must read back.
    const implicit = providers.find((p) => p.implicit);
    const parsed = parseModelId(id, implicit ? [...names, implicit.type] : names, this.current().name);
    const ref = implicit && parsed.provider === implicit.type ? { ...parsed, provider: implicit.name } : parsed;
    if (!names.includes(ref.provider)) {
      throw new LlmError('llm.unknown_provider', `no provider named "${ref.provider}" is configured (configured: ${names.join(', ')})`, ref.provider);
    }
    this.sessionOverride = ref;
    const current = this.current();
    this._onDidChange.fire(current);
    return current;
  }

  /** Drops the session override: the configuration decides again. */
  clear(): void {
    if (!this.sessionOverride) return;
    this.sessionOverride = undefined;
    const current = this.current();
    this._onDidChange.fire(current);
  }

  /** Writes the current selection into `workspaceFile` (created when missing). */
  async persist(workspaceFile: string): Promise<PersistResult> {
    const { sources } = this.snapshot();
    const current = this.current();
    const keys: string[] = [];
    const write = async (path: string[], value: string) => {
      await setConfigValue(workspaceFile, path, value);
      keys.push(path.join('.'));
    };
    if (current.implicit) {
      if (current.model) await write(['chat', 'model'], current.model);
      return { file: workspaceFile, keys };
    }
    await write(['llm', 'default'], current.name);
    if (current.model) {
      await write(['llm', 'providers', current.name, 'default_model'], current.model);
      const chatModelSource = sources['chat.model'];
      if (chatModelSource === 'global' || chatModelSource === 'workspace') await write(['chat', 'model'], current.model);
    }
    return { file: workspaceFile, keys };
  }
}
