/**
 * Notes as the chat panel attaches them: the note in the active editor (its selection, if any),
 * files read from disk at send time (the editor's unsaved text wins when the note is open), and
 * search hits when a search service is available. Paths are kiln-relative when inside the kiln.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { AttachmentRef } from '../../core/chat/conversation';
import type { ChatNotes } from '../../core/chat/chatController';
import type { SearchHitView } from '../../core/chat/protocol';

/** Attachments larger than this are cut (a model's context is finite; the agent can read the rest). */
export const MAX_ATTACHMENT_CHARS = 100_000;

export class EditorNotes implements ChatNotes {
  constructor(
    /** The kiln's absolute path (config.kiln_path, resolved). */
    private readonly kiln: () => string,
    readonly search?: (query: string) => Promise<SearchHitView[]>,
  ) {}

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

  async read(ref: AttachmentRef): Promise<string> {
    const file = isAbsolute(ref.path) ? ref.path : resolve(this.kiln(), ref.path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
    const text = open ? open.getText() : await readFile(file, 'utf8');
    const lines = ref.startLine === undefined ? text : text.split('\n').slice(ref.startLine - 1, ref.endLine ?? ref.startLine).join('\n');
    return lines.length > MAX_ATTACHMENT_CHARS ? `${lines.slice(0, MAX_ATTACHMENT_CHARS)}\n… (cut at ${MAX_ATTACHMENT_CHARS} characters)` : lines;
  }

  private refFor(file: string): AttachmentRef {
    const inKiln = relative(this.kiln(), file);
    return { path: inKiln && !inKiln.startsWith('..') && !isAbsolute(inKiln) ? inKiln.split('\\').join('/') : file };
  }
}
