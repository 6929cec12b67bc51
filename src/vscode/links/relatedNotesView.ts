/**
 * The Related Notes view: the notes nearest in meaning to the active note as a whole (their
 * centroids, NoteCentroids), or in meaning and words to the selection when there is one (the
 * index's hybrid ranking); one row per note with its best section.
 * A click opens the note at that section; an action inserts a `[[link]]` to it at the cursor. While
 * the index is missing or being built, the view says so instead of showing nothing.
 */
import * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import type { BoundKilnContext } from '../../core/kiln/tools/kilnTool';
import { relatedNotes } from '../../core/kiln/tools/linkTools';
import type { IndexState } from '../index/indexState';
import type { EditorLinks } from './editorLinks';
import { openCommand } from './connectionsView';

export const RELATED_VIEW = 'hearth.relatedNotes';
export const INSERT_LINK_COMMAND = 'hearth.links.insertLink';
const LIMIT = 15;
const MIN_SELECTION_CHARS = 12;
const MAX_SELECTION_CHARS = 2000;

export type RelatedNode =
  | { kind: 'note'; path: string; title: string; heading: string; startLine: number; score: number; snippet: string; linked: boolean }
  | { kind: 'message'; label: string };

export interface RelatedNotesDeps {
  links: EditorLinks;
  /** The kiln tools' context (with the index's search), or undefined when no kiln is open. */
  context(): BoundKilnContext | undefined;
  indexState(): IndexState | undefined;
  onDidChangeIndex: vscode.Event<unknown>;
}

export class RelatedNotesView implements vscode.TreeDataProvider<RelatedNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  private timer: NodeJS.Timeout | undefined;
  private asked: { path?: string; text?: string } | undefined;

  constructor(private readonly deps: RelatedNotesDeps) {
    this.subscriptions = [
      this.changed,
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.window.onDidChangeTextEditorSelection((event) => event.textEditor === vscode.window.activeTextEditor && this.refresh(600)),
      deps.onDidChangeIndex(() => this.refresh()),
    ];
  }

  refresh(delay = 200): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const next = this.question();
      if (next && this.asked && next.path === this.asked.path && next.text === this.asked.text) return;
      this.changed.fire();
    }, delay);
  }

  dispose(): void {
    clearTimeout(this.timer);
    vscode.Disposable.from(...this.subscriptions).dispose();
  }

  getTreeItem(node: RelatedNode): vscode.TreeItem {
    if (node.kind === 'message') return new vscode.TreeItem(node.label);
    const item = new vscode.TreeItem(node.title);
    item.description = `${Math.round(node.score * 100)}%${node.heading && node.heading !== node.title ? ` · ${node.heading}` : ''}${node.linked ? ' · linked' : ''}`;
    item.tooltip = new vscode.MarkdownString().appendText(`${node.path}:${node.startLine}\n\n${node.snippet}`);
    item.resourceUri = this.deps.links.uriOf(node.path);
    item.iconPath = vscode.ThemeIcon.File;
    item.contextValue = 'hearth.relatedNote';
    item.command = openCommand(this.deps.links.uriOf(node.path), node.startLine);
    return item;
  }

  async getChildren(node?: RelatedNode): Promise<RelatedNode[]> {
    if (node) return [];
    const ctx = this.deps.context();
    if (!ctx) return [{ kind: 'message', label: 'No kiln is open.' }];
    const state = this.deps.indexState();
    if (!ctx.semanticSearch || !state || state.kind === 'off') return [{ kind: 'message', label: `The kiln has no index${state?.kind === 'off' ? ` (${state.reason})` : ''}: related notes need one.` }];
    if (state.kind === 'indexing' && !state.notes) return [{ kind: 'message', label: 'The index is being built…' }];
    if (state.kind === 'error' || state.kind === 'unreachable') return [{ kind: 'message', label: `The index is not available: ${state.message}` }];
    const question = this.question();
    this.asked = question;
    if (!question) return [{ kind: 'message', label: 'Open a note of the kiln (or select text) to see related notes.' }];
    try {
      const found = await relatedNotes(ctx, question, LIMIT);
      const rows = found.results.map((r): RelatedNode => ({ kind: 'note', ...r }));
      const building: RelatedNode[] = state.kind === 'indexing' ? [{ kind: 'message', label: `Indexing (${state.notes?.done ?? 0} of ${state.notes?.total ?? '?'} notes): results cover part of the kiln.` }] : [];
      return rows.length ? [...building, ...rows] : [...building, { kind: 'message', label: 'No related notes found.' }];
    } catch (error) {
      return [{ kind: 'message', label: `Related notes failed: ${describeError(error)}` }];
    }
  }

  /** The selection's text when there is enough of it, else the active note. */
  private question(): { path?: string; text?: string } | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return this.asked;
    const path = this.deps.links.pathOf(editor.document.uri);
    const selected = editor.document.getText(editor.selection).trim();
    if (selected.length >= MIN_SELECTION_CHARS) return { text: selected.slice(0, MAX_SELECTION_CHARS) };
    return path ? { path } : this.asked;
  }
}

/** Inserts `[[link]]` to a related note at the cursor of the last active note editor. */
export async function insertLinkTo(links: EditorLinks, node: RelatedNode | undefined): Promise<void> {
  if (node?.kind !== 'note') return;
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => links.pathOf(e.document.uri));
  if (!editor) {
    void vscode.window.showInformationMessage('Hearth: open a note to insert the link into.');
    return;
  }
  const graph = await links.graph();
  const name = graph?.linkName(node.path) ?? node.path.replace(/\.md$/i, '');
  await editor.edit((edit) => edit.insert(editor.selection.active, `[[${name}]]`));
}
