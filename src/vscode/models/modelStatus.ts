/**
 * Keeps the status bar on the session's model: re-rendered on every switch and config reload, with
 * the selected provider's state (does it answer its model listing?) in the tooltip. Only the
 * selected provider is probed, through the catalog's 5-minute cache, so this costs one request per
 * provider change at most.
 */
import type * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/host';
import type { LlmRuntime } from '../../core/llm/llmRuntime';
import { catalogKey } from '../../core/llm/modelCatalog';
import type { ConfigService } from '../config/configService';
import type { HearthStatusBar } from '../status/statusBar';
import type { Disposable } from '../../core/lifecycle/disposable';

export class ModelStatus implements vscode.Disposable {
  private readonly states = new Map<string, { ok: boolean; detail: string }>();
  private readonly subscription: Disposable;

  constructor(
    private readonly runtime: LlmRuntime,
    private readonly configService: ConfigService,
    private readonly statusBar: HearthStatusBar,
    private readonly log: Logger,
  ) {
    this.subscription = runtime.selection.onDidChange(() => this.refresh());
  }

  /** Renders now, then probes the selected provider and renders again with its state. */
  refresh(): void {
    this.render();
    const selected = this.runtime.selection.current();
    const key = catalogKey(selected);
    void this.runtime.catalog
      .forProvider(this.runtime.provider(selected))
      .then((entry) => {
        this.states.set(key, entry.error ? { ok: false, detail: entry.error.message } : { ok: true, detail: `reachable, ${entry.models.length} model${entry.models.length === 1 ? '' : 's'} listed` });
        // A switch may have happened meanwhile; render whatever is selected now.
        this.render();
      })
      .catch((error) => this.log.debug(`model status probe failed: ${describeError(error)}`));
  }

  private render(): void {
    try {
      const selected = this.runtime.selection.current();
      this.statusBar.update({ ...this.configService.current, selected, providerState: this.states.get(catalogKey(selected)) });
    } catch (error) {
      this.log.error(`updating the status bar failed: ${describeError(error)}`);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
