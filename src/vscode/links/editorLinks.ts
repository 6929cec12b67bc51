/**
 * The kiln's link graph in the editor: read once when a kiln opens, then kept current note by note —
 * files created, changed, deleted or renamed on disk (the watcher), and the text of open notes as
 * it is typed (so links resolve in an unsaved buffer). Everything the wikilink providers and the
 * Connections view show comes from here.
 */
import * as vscode from 'vscode';
import { relative, sep } from 'node:path';
import { ConfinedRoot } from '../../core/fs/confinedRoot';
import type { Logger } from '../../core/host';
import { describeError } from '../../core/errors';
import type { ScanRules } from '../../core/kiln/kilnScanner';
import { KilnLinks } from '../../core/kiln/links/kilnLinks';
import { warmWikiCompletions } from '../../core/kiln/links/linkCompletions';
import type { LinkGraph } from '../../core/kiln/links/linkGraph';
import { ALWAYS_EXCLUDED, isNotePath } from '../../core/kiln/notePaths';

/** Typing settles before the graph re-reads an open note; a lookup (F12, hover) syncs at once. */
const TYPING_DEBOUNCE_MS = 300;

export class EditorLinks implements vscode.Disposable {
  private links: KilnLinks | undefined;
  private root: string | undefined;
  private readonly versions = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private watcher: vscode.Disposable | undefined;
  private typing: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the graph changed (a note read, typed, moved or deleted). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: Logger) {
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (!this.pathOf(event.document.uri)) return;
        clearTimeout(this.typing);
        this.typing = setTimeout(() => this.sync(event.document) && this.changed.fire(), TYPING_DEBOUNCE_MS);
      }),
    );
  }

  /** The kiln's links, or undefined when no kiln is open. */
  get kilnLinks(): KilnLinks | undefined {
    return this.links;
  }

  get kilnRoot(): string | undefined {
    return this.root;
  }

  /** Opens (or re-opens, after a config change) the graph of the kiln at `root`. */
  open(root: string | undefined, rules: ScanRules): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    this.versions.clear();
    this.root = root;
    this.links = root ? new KilnLinks(new ConfinedRoot(root), rules) : undefined;
    const links = this.links;
    if (!root || !links) return;
    const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'));
    const onEvent = (uri: vscode.Uri) => this.onFile(uri);
    this.watcher = vscode.Disposable.from(files, files.onDidCreate(onEvent), files.onDidChange(onEvent), files.onDidDelete(onEvent));
    void links.refresh().then(
      (graph) => {
        this.changed.fire();
        // The names `[[` completes, listed in slices now rather than all at once on the first `[[`.
        return warmWikiCompletions(graph);
      },
      (error) => this.log.warn(`links: reading the kiln failed: ${describeError(error)}`),
    );
  }

  /** The graph, read once if needed, with `document` (when a note) as it is in the editor now. */
  async graph(document?: vscode.TextDocument): Promise<LinkGraph | undefined> {
    const links = this.links;
    if (!links) return undefined;
    const graph = await links.current();
    if (document) this.sync(document);
    return graph;
  }

  /** Kiln-relative path of a note's URI, or undefined outside the kiln (or not a note). */
  pathOf(uri: vscode.Uri): string | undefined {
    if (!this.root || uri.scheme !== 'file') return undefined;
    const path = relative(this.root, uri.fsPath).split(sep).join('/');
    if (!path || path.startsWith('..') || path.split('/').some((s) => ALWAYS_EXCLUDED.includes(s)) || !isNotePath(path)) return undefined;
    return path;
  }

  uriOf(path: string): vscode.Uri {
    return vscode.Uri.joinPath(vscode.Uri.file(this.root ?? '/'), ...path.split('/'));
  }

  dispose(): void {
    clearTimeout(this.typing);
    this.watcher?.dispose();
    vscode.Disposable.from(...this.subscriptions).dispose();
  }

  /** Hands an open note's text to the graph when it changed since last time; true when it did. */
  private sync(document: vscode.TextDocument): boolean {
    const path = this.pathOf(document.uri);
    if (!path || !this.links || this.versions.get(path) === document.version) return false;
    this.versions.set(path, document.version);
    this.links.setText(path, document.getText());
    return true;
  }

  private onFile(uri: vscode.Uri): void {
    const links = this.links;
    if (!this.root || !links) return;
    const path = relative(this.root, uri.fsPath).split(sep).join('/');
    if (!path || path.startsWith('..') || path.split('/').some((s) => ALWAYS_EXCLUDED.includes(s))) return;
    if (!isNotePath(path) && /\.[^/]+$/.test(path)) return;
    this.versions.delete(path);
    void links.update([path]).then(
      () => this.changed.fire(),
      (error) => this.log.warn(`links: updating ${path} failed: ${describeError(error)}`),
    );
  }
}
