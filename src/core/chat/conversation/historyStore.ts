/**
 * Conversations saved per workspace. The host supplies the storage (VS Code's workspaceState in
 * the editor, a Map in tests): an index of summaries under one key and each conversation under its
 * own, so listing never loads every transcript. The newest MAX_CONVERSATIONS are kept.
 */
import type { Redactor } from '../../logging/redactor';
import { summarize, type Conversation, type ConversationSummary } from './conversation';

/** The part of VS Code's Memento the store needs. */
export interface KeyValueStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

type Thenable<T> = PromiseLike<T>;

export const MAX_CONVERSATIONS = 100;
const INDEX_KEY = 'hearth.chat.index';
const LAST_KEY = 'hearth.chat.last';
const itemKey = (id: string) => `hearth.chat.conversation.${id}`;

export class HistoryStore {
  constructor(
    private readonly storage: KeyValueStorage,
    /** What is saved passes it: a key pasted into a prompt or echoed in an error never reaches the storage. */
    private readonly redactor?: Redactor,
  ) {}

  /** Newest first. */
  list(): ConversationSummary[] {
    const index = this.storage.get<ConversationSummary[]>(INDEX_KEY);
    return Array.isArray(index) ? [...index].sort((a, b) => b.updatedAt - a.updatedAt) : [];
  }

  load(id: string): Conversation | undefined {
    const value = this.storage.get<Conversation>(itemKey(id));
    return value && Array.isArray(value.turns) ? value : undefined;
  }

  /** The conversation shown last (restored when the panel or the window reopens). */
  lastId(): string | undefined {
    return this.storage.get<string>(LAST_KEY);
  }

  async setLast(id: string): Promise<void> {
    await this.storage.update(LAST_KEY, id);
  }

  /** Saves (an empty conversation is not listed: "New chat" entries would pile up). */
  async save(unredacted: Conversation): Promise<void> {
    if (unredacted.turns.length === 0) return;
    const conversation = this.redactor?.redactDeep(unredacted) ?? unredacted;
    await this.storage.update(itemKey(conversation.id), conversation);
    const others = this.list().filter((s) => s.id !== conversation.id);
    const index = [summarize(conversation), ...others];
    for (const dropped of index.splice(MAX_CONVERSATIONS)) await this.storage.update(itemKey(dropped.id), undefined);
    await this.storage.update(INDEX_KEY, index);
  }

  async delete(id: string): Promise<void> {
    await this.storage.update(itemKey(id), undefined);
    await this.storage.update(
      INDEX_KEY,
      this.list().filter((s) => s.id !== id),
    );
    if (this.lastId() === id) await this.storage.update(LAST_KEY, undefined);
  }
}
