/**
 * The one conversation a chat panel shows, and its place in the saved history: the last one is
 * reopened when the panel starts, a new, cleared or reopened one replaces it, and it is saved (as the
 * one to reopen) after every turn. The controller stops the running turn and ends the agent session
 * before a switch.
 */
import type { HistoryStore } from './historyStore';
import { newConversation, type Conversation } from './conversation';

export class ConversationSlot {
  current: Conversation;
  readonly newId: () => string;
  readonly now: () => number;

  constructor(
    private readonly store: HistoryStore,
    newId?: () => string,
    now?: () => number,
  ) {
    this.newId = newId ?? (() => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
    this.now = now ?? Date.now;
    const lastId = store.lastId();
    this.current = (lastId && store.load(lastId)) || newConversation(this.newId(), this.now());
  }

  /** An empty conversation for `agent`; the one shown before stays in the history. */
  startNew(agent: string | undefined): void {
    this.current = newConversation(this.newId(), this.now(), agent);
  }

  /** An empty conversation for the same agent; the one shown before is deleted from the history. */
  async clear(): Promise<void> {
    const id = this.current.id;
    this.startNew(this.current.agent);
    await this.store.delete(id);
  }

  /** A saved conversation, or undefined when it is no longer saved. */
  saved(id: string): Conversation | undefined {
    return this.store.load(id);
  }

  /** Shows a saved conversation, the one to reopen from now on. */
  async show(conversation: Conversation): Promise<void> {
    this.current = conversation;
    await this.store.setLast(conversation.id);
  }

  /** Deletes a saved conversation once `confirm` agrees; false when it did not. */
  async delete(id: string, confirm: (message: string, detail?: string) => Promise<boolean>): Promise<boolean> {
    const summary = this.store.list().find((s) => s.id === id);
    if (!(await confirm(`Delete the conversation "${summary?.title ?? id}"?`, 'It cannot be restored.'))) return false;
    await this.store.delete(id);
    return true;
  }

  /** Saves the conversation after a turn, as the one to reopen. */
  async save(): Promise<void> {
    await this.store.save(this.current);
    await this.store.setLast(this.current.id);
  }
}
