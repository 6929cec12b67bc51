/**
 * The panel's requests about notes — mention completion, attaching the active note or a search hit,
 * searching, opening a note at a line — answered through what the host passes in (ChatNotes). Every
 * path comes from the webview, so it is untrusted: it is confined by the host, and a refusal is
 * logged and said in the panel, never followed.
 */
import { describeError } from '../../errors';
import type { Logger } from '../../host';
import { ChatPathError, type ScopedPath } from './attachmentScope';
import type { AttachmentRef } from '../conversation/conversation';
import type { NoteCompletion } from './noteCompletions';
import type { HostMessage, SearchHitView, WebviewMessage } from '../protocol';

/** Notes the panel can attach: the editor's active note, its text, and (when indexed) search. */
export interface ChatNotes {
  activeNote(): AttachmentRef | undefined;
  /** Where a path from the webview may point (kiln, workspace, open editors): the file, or a ChatPathError. */
  confine(path: string): Promise<ScopedPath>;
  /** Opens a kiln note (a relative path or a wiki-link name) at `line`; a ChatPathError when it is not a kiln note. */
  open(target: string, line?: number): Promise<void>;
  /** The active editor's selection with its text, when there is one. */
  selection?(): { ref: AttachmentRef; text: string } | undefined;
  /** Mention completion: notes matching `query`, or with `heading` the best note's headings. */
  complete?(query: string, heading?: string): Promise<NoteCompletion[]>;
  /** The note's text (or its lines), cut to `budget` characters with a note saying where. */
  read(ref: AttachmentRef, budget?: number): Promise<string>;
  search?(query: string): Promise<SearchHitView[]>;
  /** The kiln's note paths a reply can only link when they are known (spaces, parentheses): see needsKnownPath. */
  linkablePaths?(): Promise<string[]>;
}

export type NoteRequest = Extract<WebviewMessage, { type: 'completeNotes' | 'attachActiveNote' | 'searchNotes' | 'attachHit' | 'openNote' }>;

export interface NoteRequestContext {
  notes: ChatNotes;
  /** Adds to the next message's attachments (the controller's). */
  attach(ref: AttachmentRef, text?: string): void;
  /** An error said in the panel. */
  notice(text: string): void;
  log: Logger;
  reply(message: HostMessage): void;
}

export async function answerNoteRequest(message: NoteRequest, ctx: NoteRequestContext): Promise<void> {
  switch (message.type) {
    case 'completeNotes': {
      const items = (await ctx.notes.complete?.(message.query, message.heading)) ?? [];
      return ctx.reply({ type: 'noteCompletions', query: message.query, ...(message.heading !== undefined ? { heading: message.heading } : {}), items });
    }
    case 'attachActiveNote': {
      // The selection when there is one (the chip shows it), else the whole note.
      const selection = ctx.notes.selection?.();
      if (selection) return ctx.attach(selection.ref, selection.text);
      const ref = ctx.notes.activeNote();
      if (!ref) return ctx.notice('Open a note in the editor to attach it.');
      return ctx.attach(ref);
    }
    case 'searchNotes':
      return search(message.query, ctx);
    case 'attachHit': {
      const scoped = await confined(message.path, ctx);
      if (!scoped) return;
      return ctx.attach({ path: scoped.display, ...(message.startLine ? { startLine: message.startLine } : {}), ...(message.endLine ? { endLine: message.endLine } : {}) });
    }
    case 'openNote':
      try {
        return await ctx.notes.open(message.target, message.line);
      } catch (error) {
        if (!(error instanceof ChatPathError)) throw error;
        ctx.log.warn(`refused to open a note from the panel (${error.code}): ${message.target}`);
        return ctx.notice(error.message);
      }
  }
}

async function search(query: string, ctx: NoteRequestContext): Promise<void> {
  if (!ctx.notes.search) return ctx.reply({ type: 'searchResults', query, hits: [], error: 'Search is not available yet: build the index first.' });
  try {
    ctx.reply({ type: 'searchResults', query, hits: await ctx.notes.search(query) });
  } catch (error) {
    ctx.reply({ type: 'searchResults', query, hits: [], error: describeError(error) });
  }
}

/** The file a webview path names, or undefined (refused, logged, and said in the panel). */
async function confined(path: string, ctx: NoteRequestContext): Promise<ScopedPath | undefined> {
  try {
    return await ctx.notes.confine(path);
  } catch (error) {
    if (!(error instanceof ChatPathError)) throw error;
    ctx.log.warn(`refused a path from the panel (${error.code}): ${path}`);
    ctx.notice(error.message);
    return undefined;
  }
}

/** The panel's one-click chip: the editor's selection, else its active note. */
export function activeNoteMessage(notes: ChatNotes): HostMessage {
  const ref = notes.selection?.()?.ref ?? notes.activeNote();
  return { type: 'activeNote', ...(ref ? { ref } : {}) };
}

/** The note paths a reply can only link when known; sent on ready and before each turn (notes come and go). */
export async function postNotePaths(notes: ChatNotes, log: Logger, reply: (message: HostMessage) => void): Promise<void> {
  const paths = await notes.linkablePaths?.().catch((error: unknown) => {
    log.warn(`could not list the kiln's notes for links: ${describeError(error)}`);
    return undefined;
  });
  if (paths) reply({ type: 'notePaths', paths });
}
