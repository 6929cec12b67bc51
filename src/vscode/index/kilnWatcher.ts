/**
 * The kiln's notes changing on disk (saved here or elsewhere, a git checkout, a folder renamed or
 * deleted): the changed note paths, gathered until the events settle, so a burst becomes one
 * incremental run.
 */
import * as vscode from 'vscode';
import { relative, sep } from 'node:path';
import { ALWAYS_EXCLUDED, isNotePath } from '../../core/kiln/notePaths';

/** Saves and renames arrive in bursts (format on save, git checkout): wait for them to settle. */
const WATCH_DEBOUNCE_MS = 1500;

export class KilnWatcher implements vscode.Disposable {
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable;

  /** `changed` gets kiln-relative paths (`/`-separated) once no event came for a moment. */
  constructor(
    private readonly kilnRoot: string,
    private readonly changed: (paths: string[]) => void,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(kilnRoot), '**/*'));
    const onEvent = (uri: vscode.Uri) => this.add(uri.fsPath);
    this.subscriptions = vscode.Disposable.from(watcher, watcher.onDidCreate(onEvent), watcher.onDidChange(onEvent), watcher.onDidDelete(onEvent));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.pending.clear();
    this.subscriptions.dispose();
  }

  private add(file: string): void {
    const path = relative(this.kilnRoot, file).split(sep).join('/');
    // The index's own writes (.hearth) and anything outside the kiln are not notes.
    if (!path || path.startsWith('..') || path.split('/').some((s) => ALWAYS_EXCLUDED.includes(s))) return;
    // Non-note files are ignored, but a path without an extension may be a folder (renamed or deleted).
    if (!isNotePath(path) && /\.[^/]+$/.test(path)) return;
    this.pending.add(path);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), WATCH_DEBOUNCE_MS);
  }

  private flush(): void {
    if (this.pending.size === 0) return;
    const paths = [...this.pending];
    this.pending.clear();
    this.changed(paths);
  }
}
