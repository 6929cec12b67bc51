/**
 * The model picked in a workspace (Switch Model, `:model`) outlives a window reload (issue 29,
 * "choices that stick"): the session override is kept in the host's workspace state together with
 * the configured default it was picked over. It comes back at start as long as the configuration
 * still names that default; once the configured default changes (an edited file, a saved choice,
 * Workspace Trust), the configuration wins and the memory is dropped.
 */
import type { Logger } from '../host';
import type { Disposable } from '../lifecycle/disposable';
import { activeProvider } from '../llm/activeProvider';
import { formatModelId } from '../llm/modelId';
import type { ConfigSnapshot, ModelSelection } from '../llm/modelSelection';
import type { KeyValueStorage } from './conversation/historyStore';

export const REMEMBERED_MODEL_KEY = 'hearth.model.selection';

interface Remembered {
  /** The `provider/model` switched to. */
  id: string;
  /** Its provider's name: a pick whose provider is gone is dropped, never read as a model name. */
  provider: string;
  /** The configured default (`provider/model`) when it was picked. */
  over: string;
}

export interface RememberedModelDeps {
  selection: ModelSelection;
  /** The configured default now, ignoring the session's override (`provider/model`). */
  configuredId(): string;
  /** The workspace's state (VS Code's `workspaceState`). */
  storage: KeyValueStorage;
  log: Logger;
}

/** The model the configuration picks, the session's override aside (`provider/model`). */
export function configuredModelId(snapshot: ConfigSnapshot): string {
  const active = activeProvider(snapshot.config, snapshot.sources, snapshot.keys);
  return formatModelId(active.name, active.model);
}

export class RememberedModel implements Disposable {
  private readonly subscription: Disposable;
  private restoring = false;
  private loaded = false;

  constructor(private readonly deps: RememberedModelDeps) {
    this.subscription = deps.selection.onDidChange(() => {
      if (!this.restoring) void this.save();
    });
  }

  /**
   * Call after every configuration load: the first brings the remembered switch back (when the
   * configured default is still the one it was picked over), later ones let a changed default win.
   */
  configLoaded(): void {
    if (this.loaded) return this.configChanged();
    this.loaded = true;
    this.restore();
  }

  private restore(): void {
    const remembered = this.read();
    if (!remembered) return;
    if (remembered.over !== this.deps.configuredId()) {
      this.deps.log.info(`the configured model changed to ${this.deps.configuredId()}: the model picked earlier (${remembered.id}) is not restored`);
      void this.forget();
      return;
    }
    this.restoring = true;
    try {
      if (!this.deps.selection.providers().some((p) => p.name === remembered.provider)) throw new Error(`no provider named "${remembered.provider}" is configured`);
      this.deps.selection.switchTo(remembered.id);
      this.deps.log.info(`model restored for this workspace: ${remembered.id}`);
    } catch (error) {
      this.deps.log.info(`the model picked earlier (${remembered.id}) is no longer configured: ${error instanceof Error ? error.message : String(error)}`);
      void this.forget();
    } finally {
      this.restoring = false;
    }
  }

  private configChanged(): void {
    const remembered = this.read();
    if (!remembered || remembered.over === this.deps.configuredId()) return;
    this.deps.log.info(`the configured model is now ${this.deps.configuredId()}: it replaces the model picked for this workspace (${remembered.id})`);
    void this.forget();
    this.deps.selection.clear();
  }

  private read(): Remembered | undefined {
    const value = this.deps.storage.get<Remembered>(REMEMBERED_MODEL_KEY);
    return value && typeof value.id === 'string' && typeof value.provider === 'string' && typeof value.over === 'string' ? value : undefined;
  }

  private async save(): Promise<void> {
    const override = this.deps.selection.override;
    if (!override) return this.forget();
    await this.write({ id: this.deps.selection.currentId(), provider: override.provider, over: this.deps.configuredId() });
  }

  private forget(): Promise<void> {
    return this.write(undefined);
  }

  private async write(value: Remembered | undefined): Promise<void> {
    try {
      await this.deps.storage.update(REMEMBERED_MODEL_KEY, value);
    } catch (error) {
      this.deps.log.warn(`could not remember the model choice: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
