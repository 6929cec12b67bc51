/**
 * "Hearth: Switch Model" and "Hearth: List Models". The switcher is a quick pick grouped by
 * provider (separators), the active model checked, a refresh button in the title; choosing a model
 * switches for the session (remembered for the workspace across reloads: rememberedModel.ts); the
 * save button on an item (or "Save to User Config" / "Save to Workspace Config" in the follow-up
 * notification) persists it without losing comments, copying a provider the target file does not
 * define (saveModelChoice.ts). A typed `provider/model` or model name that matches nothing listed
 * is used as typed.
 */
import * as vscode from 'vscode';
import type { LoadedConfig } from '../../core/config/load';
import { saveModelChoice, type ConfigTarget } from '../../core/config/saveModelChoice';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/host';
import type { LlmRuntime } from '../../core/llm/llmRuntime';
import type { ProviderModels } from '../../core/llm/modelCatalog';
import { formatModelId } from '../../core/llm/modelId';
import { switchModelChecked } from '../../core/llm/modelSwitch';
import { formatSize, formatTable, modelRows, sameModel } from '../../core/llm/modelTable';
import { SWITCH_MODEL_COMMAND } from '../status/statusModel';

export const LIST_MODELS_COMMAND_ID = 'hearth.listModels';
const LIST_SCHEME = 'hearth-models';

interface ModelItem extends vscode.QuickPickItem {
  /** `provider/model` to switch to; undefined for separators and error rows. */
  id?: string;
}

const SAVE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('save'), tooltip: 'Switch and save to a config file' };
export const SAVE_CHOICES: Record<ConfigTarget, string> = { user: 'Save to User Config', workspace: 'Save to Workspace Config' };
const REFRESH_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: 'Refresh the model lists' };

export interface ModelSwitcherDeps {
  runtime: LlmRuntime;
  /** The workspace root, where `.hearth/config.toml` is written; undefined without a folder. */
  workspaceRoot: () => string | undefined;
  /** The loaded configuration: its files and each value's source decide what a save must copy. */
  config: () => LoadedConfig;
  /** Loads the configuration again now: a saved choice applies before the next switch (which a later reload would undo). */
  reload?: () => Promise<void>;
  log: Logger;
}

export class ModelSwitcher implements vscode.Disposable, vscode.TextDocumentContentProvider {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private listText = '';

  constructor(private readonly deps: ModelSwitcherDeps) {
    this.disposables.push(
      this._onDidChange,
      vscode.commands.registerCommand(SWITCH_MODEL_COMMAND, () => this.switchModel()),
      vscode.commands.registerCommand(LIST_MODELS_COMMAND_ID, () => this.listModels()),
      vscode.workspace.registerTextDocumentContentProvider(LIST_SCHEME, this),
    );
  }

  /** Items for the quick pick: a separator per provider, its models, its error in place. */
  items(listing: ProviderModels[]): ModelItem[] {
    const current = this.deps.runtime.selection.current();
    const items: ModelItem[] = [];
    for (const entry of listing) {
      items.push({ label: `${entry.provider} (${entry.type})`, kind: vscode.QuickPickItemKind.Separator });
      if (entry.error) {
        items.push({ label: '$(error) unavailable', detail: entry.error.message, alwaysShow: true });
        continue;
      }
      let activeListed = false;
      // Embedding models cannot chat: not offered here (Hearth: List Models shows them, marked).
      for (const model of entry.models.filter((m) => m.kind !== 'embedding')) {
        const active = entry.provider === current.name && sameModel(model.id, current.model);
        activeListed ||= active;
        items.push(this.item(entry.provider, model.id, active, [model.vendor ? `vendor ${model.vendor}` : '', formatSize(model.parameterBillions)].filter(Boolean).join(' · ')));
      }
      if (entry.provider === current.name && !activeListed && current.model) items.push(this.item(entry.provider, current.model, true, 'not in the provider\'s list'));
      if (entry.models.length === 0 && entry.provider !== current.name) items.push({ label: '$(info) no models listed', alwaysShow: false });
    }
    return items;
  }

  private item(provider: string, model: string, active: boolean, note: string): ModelItem {
    return {
      label: `${active ? '$(check) ' : ''}${model}`,
      description: [active ? 'active' : '', note].filter(Boolean).join(' · '),
      id: formatModelId(provider, model),
      buttons: [SAVE_BUTTON],
    };
  }

  async switchModel(): Promise<void> {
    const picker = vscode.window.createQuickPick<ModelItem>();
    picker.title = 'Hearth: Switch Model';
    picker.placeholder = `Current: ${this.deps.runtime.selection.currentId()} — choose a model, or type provider/model and press Enter`;
    picker.buttons = [REFRESH_BUTTON];
    picker.matchOnDescription = true;
    let listed: ModelItem[] = [];
    const load = async (refresh: boolean) => {
      picker.busy = true;
      try {
        listed = this.items(await this.deps.runtime.catalog.list({ refresh }));
        showItems();
      } catch (error) {
        this.deps.log.error(`listing models failed: ${describeError(error)}`);
      } finally {
        picker.busy = false;
      }
    };
    const showItems = () => {
      picker.items = listed;
      const active = listed.find((i) => i.description?.startsWith('active'));
      if (active) picker.activeItems = [active];
    };
    const done = new Promise<void>((resolve) => {
      picker.onDidTriggerButton((button) => {
        if (button === REFRESH_BUTTON) void load(true);
      });
      picker.onDidTriggerItemButton(async ({ item }) => {
        if (!item.id) return;
        picker.hide();
        if (await this.choose(item.id)) await this.askTarget();
      });
      picker.onDidAccept(async () => {
        // Text that matches no listed model is used as typed (`provider/model` or a model name), so
        // a model the provider does not list (not pulled yet, a private deployment) can be chosen.
        // Items are not rebuilt per keystroke: doing so races the typing in the input box.
        // A provider's error row is always shown, so it is the row Enter lands on when the typed text
        // matches no model: a row without an id falls back to the text as typed.
        const item = picker.selectedItems[0];
        const id = item?.id ?? (picker.value.trim() || undefined);
        if (!id) return;
        picker.hide();
        if (await this.choose(id)) await this.offerPersist();
      });
      picker.onDidHide(() => {
        picker.dispose();
        resolve();
      });
    });
    picker.show();
    await load(false);
    await done;
  }

  /** Switches for the session; false (and a message) when the id cannot be used. */
  async choose(id: string): Promise<boolean> {
    try {
      const { runtime } = this.deps;
      const selected = await switchModelChecked({ selection: runtime.selection, catalog: runtime.catalog, provider: (s) => runtime.provider(s) }, id);
      this.deps.log.info(`model switched for this session: ${formatModelId(selected.name, selected.model)}`);
      return true;
    } catch (error) {
      void vscode.window.showErrorMessage(`Hearth: ${describeError(error)}`);
      return false;
    }
  }

  private async offerPersist(): Promise<void> {
    const answer = await vscode.window.showInformationMessage(`Hearth: using ${this.deps.runtime.selection.currentId()} in this workspace (kept across reloads).`, ...this.targets().map((t) => SAVE_CHOICES[t]));
    const target = this.targets().find((t) => SAVE_CHOICES[t] === answer);
    if (target) await this.persist(target);
  }

  /** User config always; the workspace's only with a folder open. */
  private targets(): ConfigTarget[] {
    return this.deps.workspaceRoot() ? ['user', 'workspace'] : ['user'];
  }

  private async askTarget(): Promise<void> {
    const picked = await vscode.window.showQuickPick(
      this.targets().map((target) => ({ label: SAVE_CHOICES[target], target, detail: target === 'user' ? this.deps.config().files.global : '.hearth/config.toml: shared with everyone who opens this folder' })),
      { title: `Hearth: save ${this.deps.runtime.selection.currentId()}`, placeHolder: 'Where to save the model choice' },
    );
    if (picked) await this.persist(picked.target);
  }

  async persist(target: ConfigTarget): Promise<void> {
    const loaded = this.deps.config();
    if (target === 'workspace' && !this.deps.workspaceRoot()) {
      void vscode.window.showWarningMessage('Hearth: open a folder to save the model choice in its .hearth/config.toml.');
      return;
    }
    const current = this.deps.runtime.selection.current();
    try {
      const choice = { provider: current.name, ...(current.model ? { model: current.model } : {}), implicit: current.implicit };
      const result = await saveModelChoice(choice, { target, files: loaded.files, sources: loaded.sources });
      this.deps.log.info(`saved ${result.keys.join(', ')} to ${result.file}`);
      await this.deps.reload?.();
      for (const note of result.notes) this.deps.log.info(note);
      const where = target === 'user' ? 'your user config' : '.hearth/config.toml';
      void vscode.window.showInformationMessage(`Hearth: saved ${formatModelId(current.name, current.model)} to ${where}.${result.notes.length ? ` ${result.notes.join(' ')}` : ''}`);
    } catch (error) {
      void vscode.window.showErrorMessage(`Hearth: could not save the model choice: ${describeError(error)}`);
    }
  }

  /** Opens a read-only document with every provider's models and errors (the `hearth models` table). */
  async listModels(): Promise<void> {
    const listing = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Hearth: listing models' }, () => this.deps.runtime.catalog.list({ refresh: true }));
    const { runtime } = this.deps;
    this.listText = `Hearth models (* = active: ${runtime.selection.currentId()})\n\n${formatTable(modelRows(listing, runtime.selection.providers(), runtime.selection.current()))}`;
    const uri = vscode.Uri.parse(`${LIST_SCHEME}:Hearth Models`);
    this._onDidChange.fire(uri);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
  }

  provideTextDocumentContent(): string {
    return this.listText;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
