/**
 * The kiln index inside the editor: built (incrementally) on activation and when `[embedding]`,
 * `[processing]` or the kiln change, kept fresh by a debounced file watcher (notes saved, created,
 * deleted or renamed re-index in the background), with a status bar item of its own
 * (`hearth.index`) and the semantic_search kiln tool backed by it.
 */
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { LoadedConfig } from '../../core/config/load';
import { describeError, isHearthError } from '../../core/errors';
import type { Host, Logger, Progress } from '../../core/host';
import type { Redactor } from '../../core/logging/redactor';
import type { IndexReport } from '../../core/index/indexer';
import type { KilnIndex } from '../../core/index/kilnIndex';
import { indexingState, unfinishedAfter, type IndexState } from './indexState';
import { checkIndexMessage, describeRun, statusItemText } from './indexMessages';
import { KilnWatcher } from './kilnWatcher';

/** How often an unreachable index database is tried again. */
const UNREACHABLE_RETRY_MS = 30_000;

export const SEMANTIC_SEARCH_COMMAND = 'hearth.semanticSearch';
/** configCommands.ts registers it; named here so this file does not load the config commands. */
const SHOW_LOG_COMMAND = 'hearth.showLog';

export class IndexController implements vscode.Disposable {
  private index: KilnIndex | undefined;
  private key: string | undefined;
  private watcher: KilnWatcher | undefined;
  private indexState: IndexState = { kind: 'off', reason: 'no workspace' };
  /** A shared index database that was unreachable is tried again on this timer until it answers. */
  private retry?: ReturnType<typeof setTimeout>;
  private readonly statusItem = vscode.window.createStatusBarItem('hearth.index', vscode.StatusBarAlignment.Right, 98);
  private readonly _onDidChangeIndex = new vscode.EventEmitter<KilnIndex | undefined>();
  /** Fires when the index object is replaced (the gateway's semantic_search follows it). */
  readonly onDidChangeIndex = this._onDidChangeIndex.event;
  private readonly _onDidChangeState = new vscode.EventEmitter<IndexState>();
  /** Fires on every change of `state`: each progress report of a run, and its end (an open search follows it). */
  readonly onDidChangeState = this._onDidChangeState.event;
  /** This controller's own lines; the KilnIndex it opens takes the plain log and names its topic itself. */
  private readonly indexLog: Logger;
  /** Set by dispose: an apply still loading the index's code (or checking for an index) then opens and runs nothing. */
  private disposed = false;
  private opened: Promise<void> = Promise.resolve();
  /** Why the current index lacks notes: its last run over the whole kiln was cancelled or failed. */
  private unfinished: 'cancelled' | 'failed' | undefined;

  constructor(
    private readonly host: Host,
    private readonly log: Logger,
    private readonly modelCacheDir: string,
    /** The status item's tooltip and the notifications show error text: it passes this first. */
    private readonly redactor: Redactor,
  ) {
    this.indexLog = log.child('index');
    this.statusItem.name = 'Hearth index';
    this.statusItem.command = SEMANTIC_SEARCH_COMMAND;
    this.render();
    this.statusItem.show();
  }

  get current(): KilnIndex | undefined {
    return this.index;
  }

  /** What the index is doing now (indexing N of M notes, ready, failed…). */
  get state(): IndexState {
    return this.indexState;
  }

  /**
   * Settles once the newest apply has opened its index or knows there is none (not when its run
   * ends): a command that activated the extension runs while the index's code is still loading, and
   * waits here instead of saying there is no index.
   */
  async whenOpened(): Promise<void> {
    // A reload meanwhile starts another apply: wait for the newest.
    for (let opened = this.opened; ; opened = this.opened) {
      await opened;
      if (opened === this.opened) return;
    }
  }

  /** A (re)loaded config: a new index when what it depends on changed, then an incremental run. */
  async apply(loaded: LoadedConfig, workspaceRoot: string | undefined): Promise<void> {
    const { config } = loaded;
    const kilnRoot = config.kiln_path ?? workspaceRoot;
    // The embedding key counts too (hashed): one set with "Set API Key" reaches a fresh embedder.
    const apiKey = loaded.keys.embedding === undefined ? '' : createHash('sha256').update(loaded.keys.embedding).digest('hex');
    const key = JSON.stringify([kilnRoot, config.embedding, config.processing.store, config.processing.exclude, config.processing.max_file_size_kb, apiKey]);
    if (key === this.key) return;
    this.key = key;
    let settle = () => {};
    this.opened = new Promise<void>((resolve) => (settle = resolve));
    try {
      await this.openIndex(loaded, workspaceRoot, kilnRoot, key);
    } finally {
      settle();
    }
  }

  private async openIndex(loaded: LoadedConfig, workspaceRoot: string | undefined, kilnRoot: string | undefined, key: string): Promise<void> {
    const { config } = loaded;
    await this.replace(undefined);
    if (!kilnRoot) {
      this.setState({ kind: 'off', reason: 'no workspace folder' });
      return;
    }
    let index: KilnIndex;
    try {
      // The index's code (note parsing, the stores, the embedders) loads here, after activation.
      const { KilnIndex } = await import('../../core/index/kilnIndex');
      if (key !== this.key || this.disposed) return;
      index = new KilnIndex({
        kilnRoot,
        embedding: config.embedding,
        processing: config.processing,
        embedderDeps: {
          env: process.env,
          secrets: this.host.secrets,
          apiKey: loaded.keys.embedding,
          redactor: this.redactor,
          modelCacheDir: this.modelCacheDir,
          baseDir: workspaceRoot,
        },
        log: this.log,
        confirmKilnClaim: (question, detail) => this.host.confirm(question, detail),
      });
    } catch (error) {
      // A model folder that does not exist fails here, before any run.
      this.setState({ kind: 'error', message: describeError(error) });
      this.indexLog.error(`${describeError(error)}`);
      void this.showFailure(describeError(error));
      return;
    }
    await this.replace(index);
    // Any folder activates Hearth; only a kiln (a workspace config, a configured kiln_path, or an
    // index built before) is indexed unasked, so opening some repository never fetches a model.
    const isKiln = existsSync(loaded.files.workspace) || (loaded.sources.kiln_path ?? 'default') !== 'default' || (await index.exists());
    if (index !== this.index || this.disposed) return;
    if (!isKiln) {
      this.setState({ kind: 'off', reason: 'this folder is not a kiln yet (no .hearth/config.toml); run "Hearth: Reindex" to index it' });
      return;
    }
    this.watch(index);
    void this.run(index, { title: 'Hearth: indexing the kiln' });
  }

  /** "Hearth: Reindex": brings the index up to date (changed notes only, like `hearth index`) and says what it did. */
  async reindex(): Promise<void> {
    const index = await this.requireIndex();
    if (!index) return;
    if (!this.watcher) this.watch(index);
    const report = await this.run(index, { title: 'Hearth: updating the index' });
    if (report) vscode.window.showInformationMessage(`Hearth: ${describeRun(report)}`);
  }

  /**
   * "Hearth: Rebuild Index": every note embedded again, after a modal confirmation naming how many
   * (hosted embedders charge per token). Always asked, whatever `confirm_destructive` says.
   */
  async rebuild(): Promise<void> {
    const index = await this.requireIndex();
    if (!index) return;
    const notes = await index.kilnNoteCount().catch(() => undefined);
    const what = notes === undefined ? 'every note of the kiln' : `${notes} note${notes === 1 ? '' : 's'}`;
    const answer = await vscode.window.showWarningMessage(
      `Rebuild the Hearth index? This re-embeds ${what}.`,
      { modal: true, detail: `With ${index.setup.providerType} / ${index.setup.model}. A hosted embedding provider charges for every note sent; "Hearth: Reindex" embeds only notes that changed.` },
      'Rebuild',
    );
    if (answer !== 'Rebuild') return;
    if (!this.watcher) this.watch(index);
    const report = await this.run(index, { title: 'Hearth: rebuilding the index', force: true });
    if (report) vscode.window.showInformationMessage(`Hearth: index rebuilt: ${describeRun(report)}`);
  }

  /** "Hearth: Clear Index": confirmed when `confirm_destructive`; the index stays empty until Reindex. */
  async clear(): Promise<void> {
    const index = await this.requireIndex();
    if (!index) return;
    // A team database is not a folder of this machine: clearing it empties the kiln's search for every member.
    const [question, detail] =
      index.kind === 'postgres'
        ? ['Clear this kiln from the shared team index?', 'Deletes this kiln\'s notes and chunks from the PostgreSQL team database, for every member who uses it (the shared vectors stay). Search of this kiln is empty for everyone until someone runs "Hearth: Reindex".']
        : ['Clear the Hearth index?', `Removes ${index.dir}. Run "Hearth: Reindex" to build it again.`];
    if (!(await this.host.confirm(question, detail, 'Clear Index'))) return;
    await index.clear();
    this.unfinished = undefined;
    this.setState({ kind: 'ready', notes: 0, chunks: 0 });
    vscode.window.showInformationMessage('Hearth: the index was cleared.');
  }

  /**
   * "Hearth: Check Index": what the index holds, asked of the index itself (a team database has no
   * folder in the kiln to look at), or why there is none.
   */
  async check(): Promise<void> {
    const index = await this.requireIndex();
    if (!index) return;
    const state = this.indexState;
    if (state.kind === 'error' || state.kind === 'unreachable') {
      void this.showFailure(state.message);
      return;
    }
    const counts = (await index.exists()) ? { ...(await index.counts()), dimensions: await index.dimensions() } : { notes: 0, chunks: 0 };
    const { text, empty } = checkIndexMessage({ ...counts, providerType: index.setup.providerType, model: index.setup.model }, state);
    if (!empty) {
      vscode.window.showInformationMessage(text);
      return;
    }
    const reindex = 'Reindex';
    if ((await vscode.window.showInformationMessage(text, reindex)) === reindex) await this.reindex();
  }

  /** Stops watching and closes the index, waiting for a write in progress to finish; deactivate() awaits it. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.retry);
    this.watcher?.dispose();
    this.statusItem.dispose();
    this._onDidChangeIndex.dispose();
    this._onDidChangeState.dispose();
    await this.index?.dispose();
  }

  private async requireIndex(): Promise<KilnIndex | undefined> {
    await this.whenOpened();
    if (!this.index) vscode.window.showWarningMessage(`Hearth: no index (${this.indexState.kind === 'off' ? this.indexState.reason : this.indexState.kind === 'error' ? this.indexState.message : 'not ready'}).`);
    return this.index;
  }

  private async replace(index: KilnIndex | undefined): Promise<void> {
    this.watcher?.dispose();
    this.watcher = undefined;
    const old = this.index;
    this.index = index;
    this.unfinished = undefined;
    this._onDidChangeIndex.fire(index);
    await old?.dispose().catch((error) => this.indexLog.warn(`closing the old index failed: ${describeError(error)}`));
  }

  private watch(index: KilnIndex): void {
    this.watcher = new KilnWatcher(index.kilnRoot, (paths) => index === this.index && void this.run(index, { paths }));
  }

  /** Full runs show a (cancellable) notification; background runs for a few paths only the status bar. */
  private async run(index: KilnIndex, options: { title?: string; force?: boolean; paths?: string[] }): Promise<IndexReport | undefined> {
    this.setState(indexingState(this.indexState, {}));
    try {
      const work = (progress: Progress, signal?: AbortSignal) =>
        index.update({
          force: options.force,
          paths: options.paths,
          signal,
          progress: {
            report: (update) => {
              progress.report(update);
              // A run of an index replaced meanwhile (a config reload) is not what the state describes.
              if (index === this.index && (update.message !== undefined || update.done !== undefined)) this.setState(indexingState(this.indexState, update));
            },
          },
        });
      const report = options.title ? await this.host.withProgress({ title: options.title, cancellable: true }, work) : await work({ report() {} });
      if (index !== this.index) return report;
      if (report.rebuilt) vscode.window.showWarningMessage(`Hearth: the index was rebuilt: ${report.rebuilt}`);
      for (const problem of report.problems) this.indexLog.warn(`${problem.path}: ${problem.message}`);
      this.indexLog.info(`${report.notes} notes, ${report.chunks} chunks; embedded ${report.embedded} chunks of ${report.embeddedNotes} notes, ${report.removed} removed, ${report.skipped.length} skipped in ${report.seconds.toFixed(2)} s${report.cancelled ? ' (cancelled)' : ''}`);
      this.unfinished = unfinishedAfter(this.unfinished, { wholeKiln: !options.paths, outcome: report.cancelled ? 'cancelled' : 'done' });
      this.setState({ kind: 'ready', notes: report.notes, chunks: report.chunks, ...(this.unfinished ? { unfinished: this.unfinished } : {}) });
      // The first search after opening, Reindex or Rebuild should not wait for the word index to load
      // (after a background run for a few saved notes it is loaded already: the search swaps them in).
      if (options.title) void index.warmSearch().catch((error) => this.indexLog.warn(`preparing search failed: ${describeError(error)}`));
      return report;
    } catch (error) {
      if (index !== this.index) return undefined;
      if (isHearthError(error) && error.code === 'index.unreachable') {
        // The editor keeps working; the status item says so, and the index catches up once the database is back.
        this.setState({ kind: 'unreachable', message: describeError(error) });
        this.indexLog.warn(`${describeError(error)}`);
        clearTimeout(this.retry);
        this.retry = setTimeout(() => {
          if (index === this.index) void this.run(index, {});
        }, UNREACHABLE_RETRY_MS);
        return undefined;
      }
      this.unfinished = unfinishedAfter(this.unfinished, { wholeKiln: !options.paths, outcome: 'failed' });
      this.setState({ kind: 'error', message: describeError(error) });
      this.indexLog.error(`${describeError(error)}`);
      // A run the user started or waits for (opening, Reindex, Rebuild) must not fail with only a status icon to show for it.
      if (options.title) void this.showFailure(describeError(error));
      return undefined;
    }
  }

  private async showFailure(message: string): Promise<void> {
    const action = await vscode.window.showErrorMessage(`Hearth: indexing failed: ${this.redactor.redact(message)}`, 'Show Log');
    if (action === 'Show Log') await vscode.commands.executeCommand(SHOW_LOG_COMMAND);
  }

  private setState(state: IndexState): void {
    this.indexState = this.redactor.redactDeep(state);
    this.render();
    this._onDidChangeState.fire(this.indexState);
  }

  private render(): void {
    const { text, tooltip, warning } = statusItemText(this.indexState);
    this.statusItem.text = text;
    this.statusItem.tooltip = tooltip;
    this.statusItem.backgroundColor = warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }
}
