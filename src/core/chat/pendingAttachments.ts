import type { PromptAttachment } from '../agents/agentSession';
import type { AttachmentRef } from './conversation';

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

/** The attachments' text as the agent gets it: what was given when attached, else the note read now. */
export function readAttachments(attachments: readonly PendingAttachment[], read: (ref: AttachmentRef) => Promise<string>): Promise<PromptAttachment[]> {
  return Promise.all(attachments.map(async (a) => ({ ...a.ref, text: a.text ?? (await read(a.ref)) })));
}
