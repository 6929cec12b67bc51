/**
 * The host side of one chat panel: it owns the conversation, the agent session and the running
 * turn, answers the webview's messages (validated on arrival) and streams agent events back. It
 * knows nothing of VS Code: the editor passes storage, model switching, notes and confirmation in,
 * so the whole flow is unit-tested with a fake AgentCatalog.
 */
import type { ChatReviews } from './chatReviews';
import type { AgentCatalog, AgentDescriptor } from '../agents/agentSession';
import { describeError } from '../errors';
import type { Logger } from '../host';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter } from '../lifecycle/emitter';
import type { Redactor } from '../logging/redactor';
import { AgentSessionSlot } from './agentSessionSlot';
import { runChatCommand, type ChatModels } from './chatCommands';
import { newConversation, titleFor, type AttachmentRef, type Conversation, type Turn } from './conversation';
import type { HistoryStore } from './historyStore';
import { PendingAttachments, type PendingAttachment } from './pendingAttachments';
import type { AutoContext } from './autoContext';
import { PermissionPrompts } from './permissionPrompts';
import { answerNoteRequest, type ChatNotes } from './noteRequests';
import { TurnRunner } from './turnRunner';
import { parseWebviewMessage, type ChatState, type HostMessage, type WebviewMessage } from './protocol';

export type { ChatModels } from './chatCommands';

export interface ChatControllerDeps {
  catalog: AgentCatalog;
  post(message: HostMessage): void;
  store: HistoryStore;
  models: ChatModels;
  notes: ChatNotes;
  /** Asks before deleting; answers true without asking when `[cli].confirm_destructive` is false. */
  confirm(message: string, detail?: string): Promise<boolean>;
  settings(): { enableMarkdown: boolean; lazyAgentSelection: boolean; autoContext?: boolean };
  /** `[chat].auto_context`: the best note sections for a message (absent: never). */
  autoContext?(text: string, signal: AbortSignal): Promise<AutoContext>;
  cwd(): string;
  /** The kiln's folder (kiln-relative attachments point there); the workspace when absent. */
  kilnRoot?(): string | undefined;
  log: Logger;
  /** Agent edits waiting for review and the undoable turn (the editor's reviewer); absent: no review cards. */
  reviews?: ChatReviews;
  /** Every message to the webview and every event kept in the history passes it (a key echoed in an error). */
  redactor?: Redactor;
  newId?(): string;
  now?(): number;
}

function redactedPost(post: (message: HostMessage) => void, redactor: Redactor | undefined): (message: HostMessage) => void {
  return redactor ? (message) => post(redactor.redactDeep(message)) : post;
}

export class ChatController {
  private conversation: Conversation;
  private agents: AgentDescriptor[] = [];
  private readonly agentSession: AgentSessionSlot;
  private running: { turn: Turn; abort: AbortController; done: Promise<void> } | undefined;
  private readonly attachments = new PendingAttachments();
  private pickerWanted: boolean;
  private readonly permissions: PermissionPrompts;
  private readonly _onDidChangeAgent = new Emitter<string | undefined>({
    onListenerError: (error) => this.log.warn(`a listener of the agent failed: ${describeError(error)}`),
  });
  /** Fires with the conversation's agent whenever it changes (the status bar item). */
  readonly onDidChangeAgent = this._onDidChangeAgent.event;
  private readonly reviewsSubscription: Disposable | undefined;
  private readonly newId: () => string;
  private readonly now: () => number;
  private reviewsTicket = 0;
  private readonly turns: TurnRunner;

  private readonly deps: ChatControllerDeps;
  private readonly log: Logger;

  constructor(deps: ChatControllerDeps) {
    this.deps = { ...deps, post: redactedPost(deps.post, deps.redactor) };
    this.log = deps.log.child('chat');
    this.newId = deps.newId ?? (() => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
    this.now = deps.now ?? Date.now;
    this.permissions = new PermissionPrompts((m) => deps.post(m));
    this.agentSession = new AgentSessionSlot(deps.catalog, deps.log);
    this.turns = new TurnRunner(this.deps, this.agentSession, this.permissions, {
      agent: () => this.ensureAgent(),
      runningTurnId: () => this.running?.turn.id,
      notice: (level, text) => this.notice(level, text),
    }, this.log);
    const lastId = deps.store.lastId();
    this.conversation = (lastId && deps.store.load(lastId)) || newConversation(this.newId(), this.now());
    this.pickerWanted = deps.settings().lazyAgentSelection && !this.conversation.agent;
    this.reviewsSubscription = deps.reviews?.onDidChange(() => void this.postReviews(this.deps.post));
  }

  private async postReviews(post: (message: HostMessage) => void): Promise<void> {
    if (!this.deps.reviews) return;
    // Views are built asynchronously (the journal is read): only the newest one may be shown.
    const ticket = ++this.reviewsTicket;
    try {
      const view = await this.deps.reviews.view();
      if (ticket === this.reviewsTicket) post({ type: 'reviews', view });
    } catch (error) {
      this.log.warn(`could not list the pending agent changes: ${describeError(error)}`);
    }
  }

  get activeAgent(): string | undefined {
    return this.conversation.agent;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * A raw message from a webview: parsed against the protocol, dropped (and logged) if malformed.
   * `reply` reaches only the surface that sent it (search results, the model list, a joining
   * surface's catch-up); everything else goes to every surface showing this conversation.
   */
  async handle(raw: unknown, reply: (message: HostMessage) => void = this.deps.post): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if ('error' in parsed) {
      this.log.warn(`ignored a malformed message from the panel (${parsed.error})`);
      return;
    }
    try {
      await this.dispatch(parsed.message, reply === this.deps.post ? reply : redactedPost(reply, this.deps.redactor));
    } catch (error) {
      this.log.error(`${parsed.message.type} failed: ${describeError(error)}`);
      this.notice('error', describeError(error));
    }
  }

  private async dispatch(message: WebviewMessage, reply: (message: HostMessage) => void): Promise<void> {
    switch (message.type) {
      case 'ready':
        await this.refreshAgents();
        this.postState();
        reply(this.activeNoteMessage());
        await this.postReviews(reply);
        // A surface that opens while a tool waits for an answer shows the question too.
        return this.permissions.repost(reply);
      case 'send':
        return this.send(message.text);
      case 'stop':
        return this.stop();
      case 'retry':
        return this.retry(message.turnId);
      case 'permission':
        return this.permissions.answer(message.requestId, message.optionId);
      case 'pickAgent':
        return this.pickAgent(message.name);
      case 'command':
        return runChatCommand(this, this.deps.models, message.name, message.arg?.trim() ?? '');
      case 'newChat':
        return this.newChat();
      case 'openConversation':
        return this.open(message.id);
      case 'deleteConversation':
        return this.deleteConversation(message.id);
      case 'completeNotes':
      case 'attachActiveNote':
      case 'searchNotes':
      case 'attachHit':
      case 'openNote':
        return answerNoteRequest(message, { notes: this.deps.notes, attach: (ref, text) => this.attach(ref, text), notice: (text) => this.notice('error', text), log: this.log, reply });
      case 'removeAttachment':
        this.attachments.remove(message.index);
        return this.postAttachments();
      case 'review':
        if (message.decision === 'open') return this.deps.reviews?.open(message.id);
        return this.deps.reviews?.decide(message.id, message.decision === 'accept');
      case 'undoLastChange':
        return this.deps.reviews?.undoLast();
      case 'requestModels': {
        const { ids } = await this.deps.models.list();
        return reply({ type: 'models', ids });
      }
    }
  }

  /** Adds context to the next message (a note, a search hit, an editor selection with its text). */
  attach(ref: AttachmentRef, text?: string): void {
    this.attachments.add(ref, text);
    this.postAttachments();
  }

  async send(text: string): Promise<void> {
    if (this.running) return this.notice('error', 'A reply is still streaming: stop it first.');
    const attachments = this.attachments.take();
    const turn: Turn = { id: this.newId(), text, attachments: attachments.map((a) => a.ref), events: [], status: 'running' };
    if (this.conversation.turns.length === 0) this.conversation.title = titleFor(text);
    this.conversation.turns.push(turn);
    this.postAttachments();
    await this.run(turn, attachments);
  }

  async retry(turnId: string): Promise<void> {
    if (this.running) return;
    const turn = this.conversation.turns.find((t) => t.id === turnId);
    if (!turn) return;
    turn.events = [];
    turn.status = 'running';
    await this.run(
      turn,
      turn.attachments.map((ref) => ({ ref })),
    );
  }

  /** Cancels the running turn: the agent's request is aborted and open permission prompts reject. */
  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.abort.abort();
    this.permissions.cancelAll();
    await running.done;
  }

  async newChat(): Promise<void> {
    await this.stop();
    await this.agentSession.end();
    // "New" keeps the agent picked for this panel; the picker shows only while none was picked.
    const agent = this.conversation.agent;
    this.conversation = newConversation(this.newId(), this.now(), agent);
    this.pickerWanted = this.deps.settings().lazyAgentSelection && !agent;
    this.attachments.clear();
    this.fireAgent();
    this.postState();
  }

  /** Empties the current conversation (and the agent's memory of it: a fresh session). */
  async clear(): Promise<void> {
    await this.stop();
    await this.agentSession.end();
    const id = this.conversation.id;
    this.conversation = newConversation(this.newId(), this.now(), this.conversation.agent);
    await this.deps.store.delete(id);
    this.postState();
  }

  async pickAgent(name: string): Promise<void> {
    if (this.agents.length === 0 || !this.agents.some((a) => a.name === name)) await this.refreshAgents();
    const agent = this.agents.find((a) => a.name === name);
    if (!agent) return this.notice('error', `No agent named "${name}". Known: ${this.agents.map((a) => a.name).join(', ') || 'none'}.`);
    if (!agent.available) return this.notice('error', `${agent.name} is not available: ${agent.unavailableReason ?? 'unknown reason'}.`);
    await this.stop();
    if (this.conversation.agent !== name) await this.agentSession.end();
    this.conversation.agent = name;
    this.pickerWanted = false;
    this.fireAgent();
    this.postState();
  }

  /** Opens the agent picker (`:agent` without a name). */
  async showPicker(): Promise<void> {
    await this.refreshAgents();
    this.pickerWanted = true;
    this.postState();
  }

  notice(level: 'info' | 'error', text: string, items?: string[]): void {
    this.deps.post({ type: 'notice', level, text, ...(items ? { items } : {}) });
  }

  /** The session's model changed (anywhere: status bar, palette, `:model`). */
  modelChanged(): void {
    this.agentSession.modelChanged();
    this.deps.post({ type: 'model', model: this.deps.models.currentId() });
  }

  /** The editor's active note or selection changed: the panel's one-click chip follows. */
  activeNoteChanged(): void {
    this.deps.post(this.activeNoteMessage());
  }

  private activeNoteMessage(): HostMessage {
    const ref = this.deps.notes.selection?.()?.ref ?? this.deps.notes.activeNote();
    return { type: 'activeNote', ...(ref ? { ref } : {}) };
  }

  focusInput(): void {
    this.deps.post({ type: 'focusInput' });
  }

  postState(): void {
    const state: ChatState = {
      settings: { enableMarkdown: this.deps.settings().enableMarkdown },
      agents: this.agents,
      ...(this.conversation.agent ? { activeAgent: this.conversation.agent } : {}),
      showPicker: this.pickerWanted,
      model: this.deps.models.currentId(),
      conversation: this.conversation,
      history: this.deps.store.list(),
      attachments: this.attachments.refs,
      busy: this.busy,
    };
    this.deps.post({ type: 'state', state });
  }

  async dispose(): Promise<void> {
    await this.stop();
    await this.agentSession.end();
    this._onDidChangeAgent.dispose();
    await this.reviewsSubscription?.dispose();
  }

  private async run(turn: Turn, attachments: PendingAttachment[]): Promise<void> {
    const abort = new AbortController();
    let finish!: () => void;
    this.running = { turn, abort, done: new Promise<void>((resolve) => (finish = resolve)) };
    this.deps.post({ type: 'turnStart', turnId: turn.id, text: turn.text, attachments: turn.attachments });
    const earlier = this.conversation.turns.slice(0, this.conversation.turns.indexOf(turn));
    await this.turns.run(turn, attachments, earlier, abort);
    this.conversation.updatedAt = this.now();
    this.running = undefined;
    this.deps.post({ type: 'turnEnd', turnId: turn.id });
    // The turn's applied edits are now the newest undoable change.
    void this.postReviews(this.deps.post);
    try {
      await this.deps.store.save(this.conversation);
      await this.deps.store.setLast(this.conversation.id);
      this.postState();
    } catch (error) {
      this.log.error(`saving the conversation failed: ${describeError(error)}`);
    }
    finish();
  }

  /** The conversation's agent: the catalog's default when none was picked yet. */
  private async ensureAgent(): Promise<string> {
    if (!this.conversation.agent) {
      this.conversation.agent = await this.deps.catalog.defaultAgent();
      this.pickerWanted = false;
      this.fireAgent();
      // Restricted Mode: say why the conversation runs on the internal agent instead of an external one.
      const fallback = await this.deps.catalog.trustFallback?.();
      if (fallback) this.notice('info', `${fallback[0].toUpperCase()}${fallback.slice(1)}.`);
    }
    return this.conversation.agent;
  }

  private async refreshAgents(): Promise<void> {
    try {
      this.agents = await this.deps.catalog.list();
    } catch (error) {
      this.log.error(`listing agents failed: ${describeError(error)}`);
    }
  }

  private async open(id: string): Promise<void> {
    const conversation = this.deps.store.load(id);
    if (!conversation) return this.notice('error', 'That conversation is no longer saved.');
    await this.stop();
    await this.agentSession.end();
    this.conversation = conversation;
    this.pickerWanted = false;
    await this.deps.store.setLast(id);
    this.fireAgent();
    this.postState();
  }

  private async deleteConversation(id: string): Promise<void> {
    const summary = this.deps.store.list().find((s) => s.id === id);
    if (!(await this.deps.confirm(`Delete the conversation "${summary?.title ?? id}"?`, 'It cannot be restored.'))) return;
    await this.deps.store.delete(id);
    if (id === this.conversation.id) return this.newChat();
    this.postState();
  }

  private postAttachments(): void {
    this.deps.post({ type: 'attachments', attachments: this.attachments.refs });
  }

  private fireAgent(): void {
    this._onDidChangeAgent.fire(this.conversation.agent);
  }
}
