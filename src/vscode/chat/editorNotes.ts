/**
 * Notes as the chat panel attaches them: the note in the active editor (its selection, if any),
 * files read from disk at send time (the editor's unsaved text wins when the note is open), and
 * search hits when a search service is available. Paths are kiln-relative when inside the kiln.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { AttachmentRef } from '../../core/chat/conversation/conversation';
import type { ChatNotes } from '../../core/chat/context/noteRequests';
import { AttachmentScope, type ScopedPath } from '../../core/chat/context/attachmentScope';
import { cutToBudget } from '../../core/chat/context/pendingAttachments';
import { resolveKilnNote } from '../../core/chat/context/kilnNoteTarget';
import { NoteCatalog, type NoteCompletion } from '../../core/chat/context/noteCompletions';
import type { SearchHitView } from '../../core/chat/protocol';

/** Attachments larger than this are cut (a model's context is finite; the agent can read the rest). */
export const MAX_ATTACHMENT_CHARS = 100_000;

export class EditorNotes implements ChatNotes {
  private readonly scope: AttachmentScope;
  private readonly catalog: NoteCatalog;

  constructor(
    /** The kiln's absolute path (config.kiln_path, resolved). */
    private readonly kiln: () => string,
    readonly search?: (query: string) => Promise<SearchHitView[]>,
  ) {
    this.catalog = new NoteCatalog(kiln);
    this.scope = new AttachmentScope({
      kiln,
      workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
      openFiles: openEditorFiles,
    });
  }

  complete(query: string, heading?: string): Promise<NoteCompletion[]> {
    return this.catalog.complete(query, heading);
  }

  linkablePaths(): Promise<string[]> {
    return this.catalog.linkablePaths();
  }

  confine(path: string): Promise<ScopedPath> {
    return this.scope.check(path);
  }

  async open(target: string, line?: number): Promise<void> {
    const note = await resolveKilnNote(this.kiln(), target);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(note.absolute));
    const at = line !== undefined ? new vscode.Position(Math.min(line, document.lineCount) - 1, 0) : undefined;
    await vscode.window.showTextDocument(document, { preview: true, ...(at ? { selection: new vscode.Range(at, at) } : {}) });
  }

  activeNote(): AttachmentRef | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme !== 'file') return undefined;
    return this.refFor(editor.document.uri.fsPath);
  }

  /** The active editor's selection with its file and lines (1-based), and its text as shown. */
  selection(): { ref: AttachmentRef; text: string } | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) return undefined;
    const { start, end } = editor.selection;
    const lastLine = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
    const base = editor.document.uri.scheme === 'file' ? this.refFor(editor.document.uri.fsPath) : { path: editor.document.uri.toString() };
    return { ref: { ...base, startLine: start.line + 1, endLine: lastLine }, text: editor.document.getText(editor.selection) };
  }

  async read(ref: AttachmentRef, budget = MAX_ATTACHMENT_CHARS): Promise<string> {
    const file = isAbsolute(ref.path) ? ref.path : resolve(this.kiln(), ref.path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
    // Saved conversations are replayed by Retry: a stored path is confined again, and read confined.
    const text = open ? open.getText() : (await this.scope.read(ref.path)).text;
    const lines = ref.startLine === undefined ? text : text.split('\n').slice(ref.startLine - 1, ref.endLine ?? ref.startLine).join('\n');
    return cutToBudget(lines, ref.path, budget, ref.startLine ?? 1);
  }

  private refFor(file: string): AttachmentRef {
    const inKiln = relative(this.kiln(), file);
    return { path: inKiln && !inKiln.startsWith('..') && !isAbsolute(inKiln) ? inKiln.split('\\').join('/') : file };
  }
}

/** Files shown in editor tabs (and visible editors), the "open editors" a panel path may also name. */
function openEditorFiles(): string[] {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.input));
  const uris = [...tabs.flatMap((input) => (input instanceof vscode.TabInputText ? [input.uri] : [])), ...vscode.window.visibleTextEditors.map((e) => e.document.uri)];
  return uris.filter((uri) => uri.scheme === 'file').map((uri) => uri.fsPath);
}
