/**
 * The live configuration in the editor: loads both files through the core loader, reloads when
 * either changes on disk or is saved (no window reload), and fires onDidChange with the new result.
 * Loading never throws (DESIGN.md decision 3), so a broken file only changes the problems list.
 */
import { existsSync, watch as fsWatch } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadConfig, type LoadedConfig } from '../../core/config/load';
import { findWorkspaceRoot, globalConfigPath, workspaceConfigPath } from '../../core/config/locations';
import { defaultConfig } from '../../core/config/schema';
import { describeError } from '../../core/errors';
import type { Logger, SecretStore } from '../../core/host';
import type { Redactor } from '../../core/logging/redactor';
import { NO_PROVIDER_KEYS } from '../../core/config/providerKeys';

/** File events come in bursts (an editor save is often delete + create + change): settle first. */
const RELOAD_DEBOUNCE_MS = 150;

export class ConfigService implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<LoadedConfig>();
  /** Fires after every reload, with the new configuration and problems. */
  readonly onDidChange = this._onDidChange.event;

  private _current: LoadedConfig;
  private _workspaceRoot: string | undefined;
  private readonly globalFile: string;
  private readonly disposables: vscode.Disposable[] = [];
  private watchers: vscode.Disposable[] = [];
  /** Whether the global file's folder existed when the watchers were made (see loadOnce). */
  private globalDirWatched = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly log: Logger,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** `{secret:NAME}` and the redactor every resolved key is fed to: both read at each load, never at use. */
    private readonly keys: { secrets?: vscode.SecretStorage; redactor?: Redactor } = {},
  ) {
    this.globalFile = globalConfigPath(env);
    this._current = { config: defaultConfig(), sources: {}, problems: [], files: { global: this.globalFile, workspace: '' }, trusted: false, withheld: [], keys: NO_PROVIDER_KEYS };
  }

  /** The latest loaded configuration (defaults until the first load finishes). */
  get current(): LoadedConfig {
    return this._current;
  }

  /** The workspace root the workspace file belongs to; undefined when no folder is open. */
  get workspaceRoot(): string | undefined {
    return this._workspaceRoot;
  }

  get globalConfigFile(): string {
    return this.globalFile;
  }

  /** `<root>/.hearth/config.toml`, or undefined when no folder is open. */
  get workspaceConfigFile(): string | undefined {
    return this._workspaceRoot === undefined ? undefined : workspaceConfigPath(this._workspaceRoot);
  }

  /** Loads once and starts watching; call once from activate(). */
  async start(): Promise<void> {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.pickRoot();
        this.scheduleReload('workspace folders changed');
      }),
      // Granting trust applies the withheld keys at once: every consumer reacts to onDidChange,
      // so servers and agents start without a window reload.
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.log.info('workspace trusted: the workspace configuration applies in full');
        void this.reload();
      }),
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (this.isConfigFile(document.uri)) this.scheduleReload(`saved ${document.uri.fsPath}`);
      }),
    );
    // Keys are resolved at load: a secret stored or deleted (here or in another window) reloads.
    if (this.keys.secrets) this.disposables.push(this.keys.secrets.onDidChange((event) => this.scheduleReload(`secret changed: ${event.key}`)));
    this.pickRoot();
    await this.reload();
  }

  /** Reloads now; concurrent calls coalesce into one more load after the running one. */
  reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.loadOnce();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Debounced reload, for file events. */
  scheduleReload(reason: string): void {
    this.log.debug(`config reload scheduled: ${reason}`);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, RELOAD_DEBOUNCE_MS);
  }

  isConfigFile(uri: vscode.Uri): boolean {
    if (uri.scheme !== 'file') return false;
    const file = path.normalize(uri.fsPath);
    return file === path.normalize(this.globalFile) || (this.workspaceConfigFile !== undefined && file === path.normalize(this.workspaceConfigFile));
  }

  private async loadOnce(): Promise<void> {
    // The global folder appeared (or went) since the watchers were made: watch again, closer to it.
    if (!this.globalDirWatched || !existsSync(path.dirname(this.globalFile))) this.pickRoot();
    // Without a folder there is no workspace file; the home directory stands in as the root so
    // relative paths (kiln_path) still resolve somewhere sensible.
    const workspaceRoot = this._workspaceRoot ?? homedir();
    try {
      // Restricted Mode: the workspace file's trust-gated keys wait (DESIGN.md decision 14).
      const loaded = await loadConfig({
        workspaceRoot, env: this.env, globalConfigPath: this.globalFile, trusted: vscode.workspace.isTrusted, trustName: 'Workspace Trust', secrets: this.secretStore(), redactor: this.keys.redactor,
      });
      this._current = loaded;
      const errors = loaded.problems.filter((p) => p.severity === 'error').length;
      this.log.debug(`config loaded (${errors} error(s), ${loaded.problems.length - errors} warning(s)) from ${loaded.files.global} and ${loaded.files.workspace}`);
    } catch (error) {
      // loadConfig promises never to throw; if it does anyway, keep the last good config.
      this.log.error(`loading the configuration failed unexpectedly: ${describeError(error)}`);
      return;
    }
    this._onDidChange.fire(this._current);
  }

  /** The editor's SecretStorage as core's SecretStore (its `get` answers a Thenable). */
  private secretStore(): SecretStore | undefined {
    const storage = this.keys.secrets;
    return storage ? { get: async (name) => (await storage.get(name)) ?? undefined } : undefined;
  }

  /** Chooses the workspace root among the open folders and (re)creates the file watchers. */
  private pickRoot(): void {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    this._workspaceRoot = findWorkspaceRoot(folders);
    for (const watcher of this.watchers) watcher.dispose();
    const globalDir = path.dirname(this.globalFile);
    this.globalDirWatched = existsSync(globalDir);
    this.watchers = [this.globalDirWatched ? this.watch(globalDir, path.basename(this.globalFile)) : this.watchForCreation(globalDir)];
    // Every folder's candidate file is watched: creating .hearth/config.toml in another folder
    // can change which folder is the root.
    for (const folder of folders) this.watchers.push(this.watch(folder, '.hearth/config.toml'));
  }

  /**
   * The global folder does not exist yet (a fresh machine): an editor watcher on a missing folder
   * never fires, so node's own watcher waits on the nearest existing ancestor for the next path
   * segment to appear, then everything is watched again.
   */
  private watchForCreation(missingDir: string): vscode.Disposable {
    let child = missingDir;
    let ancestor = path.dirname(missingDir);
    while (!existsSync(ancestor) && path.dirname(ancestor) !== ancestor) {
      child = ancestor;
      ancestor = path.dirname(ancestor);
    }
    try {
      const watcher = fsWatch(ancestor, { persistent: false }, (_event, name) => {
        if (name === null || name.toString() === path.basename(child)) this.scheduleReload(`created: ${child}`);
      });
      watcher.on('error', () => watcher.close());
      return new vscode.Disposable(() => watcher.close());
    } catch (error) {
      this.log.debug(`cannot watch ${ancestor} for ${child} to appear: ${describeError(error)}`);
      return new vscode.Disposable(() => {});
    }
  }

  private watch(folder: string, pattern: string): vscode.Disposable {
    try {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), pattern));
      const onEvent = (uri: vscode.Uri) => {
        if (uri.fsPath.endsWith(path.join('.hearth', 'config.toml')) && !this.isConfigFile(uri)) this.pickRoot();
        this.scheduleReload(`changed on disk: ${uri.fsPath}`);
      };
      return vscode.Disposable.from(watcher, watcher.onDidChange(onEvent), watcher.onDidCreate(onEvent), watcher.onDidDelete(onEvent));
    } catch (error) {
      this.log.warn(`cannot watch ${path.join(folder, pattern)} for changes (${describeError(error)}); saving it in the editor still reloads`);
      return new vscode.Disposable(() => {});
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers) watcher.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    this._onDidChange.dispose();
  }
}
