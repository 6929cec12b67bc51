import type { PromptAttachment } from '../../agents/agentSession';
import type { AttachmentRef } from '../conversation/conversation';

export interface PendingAttachment {
  ref: AttachmentRef;
  /** Given when attached (an editor selection, possibly unsaved); else read at send. */
  text?: string;
}

/** The context attached to the next message (notes, search hits, editor selections); sending takes it. */
export class PendingAttachments {
  private items: PendingAttachment[] = [];

  get refs(): AttachmentRef[] {
    return this.items.map((a) => a.ref);
  }

  /** Adds `ref` unless the same note range is attached already. */
  add(ref: AttachmentRef, text?: string): void {
    const same = (a: AttachmentRef) => a.path === ref.path && a.startLine === ref.startLine && a.endLine === ref.endLine;
    if (!this.items.some((a) => same(a.ref))) this.items.push({ ref, ...(text !== undefined ? { text } : {}) });
  }

  remove(index: number): void {
    this.items.splice(index, 1);
  }

  clear(): void {
    this.items = [];
  }

  /** Everything attached, for the message being sent; the list starts empty again. */
  take(): PendingAttachment[] {
    const taken = this.items;
    this.items = [];
    return taken;
  }
}

/** Without a known context window, what all attachments of one message may take together. */
export const DEFAULT_ATTACHMENT_BUDGET = 100_000;

/**
 * Characters the attachments of one message may take: half the model's context window at about
 * 4 characters a token (the rest is for the conversation, the tools and the answer), within bounds.
 */
export function attachmentBudget(contextTokens: number | undefined): number {
  if (!contextTokens || contextTokens <= 0) return DEFAULT_ATTACHMENT_BUDGET;
  return Math.min(400_000, Math.max(4_000, Math.floor(contextTokens * 2)));
}

/**
 * The attachments' text as the agent gets it: what was given when attached, else the note read now;
 * the budget is shared equally, each part cut at a line with a note saying where.
 */
export function readAttachments(
  attachments: readonly PendingAttachment[],
  read: (ref: AttachmentRef, budget: number) => Promise<string>,
  budget = DEFAULT_ATTACHMENT_BUDGET,
): Promise<PromptAttachment[]> {
  const share = Math.floor(budget / Math.max(1, attachments.length));
  // Text given when attached (a selection) is cut here; a note read now is cut by the reader.
  // A note deleted or moved since it was attached does not fail the message: the agent is told.
  const readOrSay = (ref: AttachmentRef) => read(ref, share).catch((error: unknown) => `(${ref.path} could not be read: ${error instanceof Error ? error.message : String(error)})`);
  return Promise.all(
    attachments.map(async (a) => ({ ...a.ref, text: a.text !== undefined ? cutToBudget(a.text, a.ref.path, share, a.ref.startLine ?? 1) : await readOrSay(a.ref) })),
  );
}

/**
 * `text` (lines `firstLine`… of `path`) cut to `budget` characters at a line boundary, never
 * silently: the cut names the last line attached and how many lines were left out.
 */
export function cutToBudget(text: string, path: string, budget: number, firstLine = 1): string {
  if (text.length <= budget) return text;
  const lines = text.split('\n');
  let size = 0;
  let kept = 0;
  while (kept < lines.length && size + lines[kept]!.length + 1 <= budget) size += lines[kept++]!.length + 1;
  const body = kept > 0 ? lines.slice(0, kept).join('\n') : lines[0]!.slice(0, budget);
  const last = firstLine + Math.max(kept, 1) - 1;
  const total = firstLine + lines.length - 1;
  return `${body}\n… (cut at line ${last} of ${path} to fit the attachment budget of ${budget.toLocaleString('en-US')} characters; lines ${last + 1}-${total} not attached — the agent can read them with read_note)`;
}
