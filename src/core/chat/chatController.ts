/**
 * The host side of one chat panel: it owns the conversation, the agent session and the running
 * turn, answers the webview's messages (validated on arrival) and streams agent events back. It
 * knows nothing of VS Code: the editor passes storage, model switching, notes and confirmation in,
 * so the whole flow is unit-tested with a fake AgentCatalog.
 */
import { describeError } from '../errors';
import type { Logger } from '../host';
import type { AgentControlsView } from '../agents/agentControls';
import type { Event } from '../lifecycle/emitter';
import { AgentChoice } from './agents/agentChoice';
import { AgentPreferences } from './agents/agentPreferences';
import { AgentSessionPanel } from './agents/agentSessionPanel';
import { AgentSessionSlot } from './agents/agentSessionSlot';
import { runChatCommand } from './chatCommands';
import { redactedPost, type ChatControllerDeps } from './chatControllerDeps';
import { titleFor, type AttachmentRef, type Conversation, type Turn } from './conversation/conversation';
import { ConversationNavigator } from './conversation/conversationNavigator';
import { ConversationSlot } from './conversation/conversationSlot';
import { PendingAttachments, type PendingAttachment } from './context/pendingAttachments';
import { PermissionPrompts } from './agents/permissionPrompts';
import { activeNoteMessage, answerNoteRequest, postNotePaths } from './context/noteRequests';
import { PanelReviews } from './reviews/panelReviews';
import { RunningTurn } from './runningTurn';
import { TurnRunner } from './turnRunner';
import { parseWebviewMessage, type ChatState, type HostMessage, type WebviewMessage } from './protocol';

export type { ChatModels } from './chatCommands';
export type { ChatControllerDeps } from './chatControllerDeps';

export class ChatController {
  private readonly conversations: ConversationSlot;
  private readonly agentSession: AgentSessionSlot;
  private readonly running: RunningTurn;
  private readonly attachments = new PendingAttachments();
  private readonly agentChoice: AgentChoice;
  private readonly permissions: PermissionPrompts;
  /** Fires with the conversation's agent whenever it changes (the status bar item). */
  readonly onDidChangeAgent: Event<string | undefined>;
  /** Fires with the running external agent's controls (its model in the status bar); undefined once it ends. */
  readonly onDidChangeAgentControls: Event<AgentControlsView | undefined>;
  private readonly reviews: PanelReviews;
  private readonly turns: TurnRunner;
  /** The external agent's session as the panel sees it: resume, pickers, commands, its saved sessions. */
  private readonly agentPanel: AgentSessionPanel;
  private readonly navigator: ConversationNavigator;

  private readonly deps: ChatControllerDeps;
  private readonly log: Logger;

  constructor(deps: ChatControllerDeps) {
    this.deps = { ...deps, post: redactedPost(deps.post, deps.redactor) };
    this.log = deps.log.child('chat');
    this.conversations = new ConversationSlot(deps.store, deps.newId, deps.now);
    this.permissions = new PermissionPrompts((m) => deps.post(m));
    this.running = new RunningTurn(this.permissions);
    this.agentSession = new AgentSessionSlot(deps.catalog, deps.log);
    this.agentChoice = new AgentChoice(deps.catalog, this.log);
    this.agentPanel = new AgentSessionPanel({
      catalog: deps.catalog,
      preferences: new AgentPreferences(deps.preferences),
      post: this.deps.post,
      notice: (level, text) => this.notice(level, text),
      conversation: () => this.conversation,
      newId: () => this.conversations.newId(),
      cwd: () => deps.cwd(),
    });
    this.onDidChangeAgent = this.agentChoice.onDidChange;
    this.onDidChangeAgentControls = this.agentPanel.onDidChangeControls;
    this.turns = new TurnRunner(this.deps, this.agentSession, this.permissions, {
      agent: () => this.agentChoice.ensure(this.conversation, (text) => this.notice('info', text)),
      runningTurnId: () => this.running.turnId,
      notice: (level, text) => this.notice(level, text),
      sessionOptions: (agent) => this.agentPanel.startOptions(agent),
      sessionOpened: (session) => this.agentPanel.opened(session),
    }, this.log);
    this.agentChoice.pickerWanted = deps.settings().lazyAgentSelection && !this.conversation.agent;
    this.reviews = new PanelReviews(deps.reviews, this.deps.post, this.log);
    this.navigator = new ConversationNavigator({
      conversations: this.conversations,
      agentSession: this.agentSession,
      agentPanel: this.agentPanel,
      agentChoice: this.agentChoice,
      attachments: this.attachments,
      turns: this.turns,
      stop: () => this.stop(),
      lazyAgentSelection: () => deps.settings().lazyAgentSelection,
      confirm: (message, detail) => deps.confirm(message, detail),
      notice: (level, text) => this.notice(level, text),
      postState: () => this.postState(),
    });
  }

  private get conversation(): Conversation {
    return this.conversations.current;
  }

  get activeAgent(): string | undefined {
    return this.conversation.agent;
  }

  get busy(): boolean {
    return this.running.busy;
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
        await this.agentChoice.refresh();
        this.postState();
        reply(activeNoteMessage(this.deps.notes));
        await postNotePaths(this.deps.notes, this.log, reply);
        await this.reviews.show(reply);
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
        return this.navigator.pickAgent(message.name);
      case 'command':
        return runChatCommand(this, this.deps.models, message.name, message.arg?.trim() ?? '');
      case 'newChat':
        return this.navigator.newChat();
      case 'openConversation':
        return this.navigator.open(message.id);
      case 'deleteConversation':
        return this.navigator.delete(message.id);
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
      case 'undoLastChange':
        return this.reviews.answer(message);
      case 'setAgentOption':
        return this.agentPanel.setOption(message.id, message.value);
      case 'listAgentSessions': {
        const { sessions, error } = await this.agentPanel.listSessions(message.agent);
        return reply({ type: 'agentSessions', agent: message.agent, sessions, ...(error ? { error } : {}) });
      }
      case 'choice':
        return this.deps.models.choose?.(message.id);
      case 'openAgentSession':
        return this.navigator.openAgentSession(message.agent, message.sessionId, message.title);
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
    await this.navigator.settled();
    if (this.busy) return this.notice('error', 'A reply is still streaming: stop it first.');
    const attachments = this.attachments.take();
    const turn: Turn = { id: this.conversations.newId(), text, attachments: attachments.map((a) => a.ref), events: [], status: 'running' };
    if (this.conversation.turns.length === 0) this.conversation.title = titleFor(text);
    this.conversation.turns.push(turn);
    this.postAttachments();
    await this.run(turn, attachments);
  }

  async retry(turnId: string): Promise<void> {
    if (this.busy) return;
    const turn = this.conversation.turns.find((t) => t.id === turnId);
    if (!turn) return;
    turn.events = [];
    turn.status = 'running';
    await this.run(turn, turn.attachments.map((ref) => ({ ref })));
  }

  /** Cancels the running turn: the agent's request is aborted and open permission prompts reject. */
  async stop(): Promise<void> {
    await this.running.stop();
  }

  /** `:logout`: the active external agent signs out (and Hearth forgets a key it kept for it). */
  async logout(): Promise<void> {
    const session = this.agentSession.current;
    if (!session?.logout) return this.notice('error', 'The agent of this conversation is not running or is not an external agent: send a message first.');
    try {
      const done = await session.logout();
      this.notice(done ? 'info' : 'error', done ? `Signed out of ${session.agent.name}.` : `${session.agent.name} does not offer signing out.`);
    } catch (error) {
      this.notice('error', describeError(error));
    }
  }

  /** `:model X` or the status bar while an external agent is active: its own model picker; false when it has none. */
  async switchAgentModel(id: string): Promise<boolean> {
    return this.agentPanel.switchModel(id);
  }

  // Conversation and agent changes live in ConversationNavigator; these are the panel's and the commands' entry points.
  newChat(): Promise<void> { return this.navigator.newChat(); }
  /** Empties the current conversation (and the agent's memory of it: a fresh session). */
  clear(): Promise<void> { return this.navigator.clear(); }
  pickAgent(name: string): Promise<void> { return this.navigator.pickAgent(name); }
  /** Opens the agent picker (`:agent` without a name). */
  showPicker(): Promise<void> { return this.navigator.showPicker(); }

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
    this.deps.post(activeNoteMessage(this.deps.notes));
  }

  focusInput(): void {
    this.deps.post({ type: 'focusInput' });
  }

  postState(): void {
    const state: ChatState = {
      settings: { enableMarkdown: this.deps.settings().enableMarkdown },
      agents: this.agentChoice.agents,
      ...(this.conversation.agent ? { activeAgent: this.conversation.agent } : {}),
      showPicker: this.agentChoice.pickerWanted,
      model: this.deps.models.currentId(),
      conversation: this.conversation,
      history: this.deps.store.list(),
      attachments: this.attachments.refs,
      busy: this.busy,
      ...(this.agentPanel.controls ? { agentControls: this.agentPanel.controls } : {}),
    };
    this.deps.post({ type: 'state', state });
  }

  async dispose(): Promise<void> {
    await this.navigator.endSession();
    this.agentPanel.dispose();
    this.agentChoice.dispose();
    await this.reviews.dispose();
  }

  private async run(turn: Turn, attachments: PendingAttachment[]): Promise<void> {
    const body = async (abort: AbortController) => {
      this.deps.post({ type: 'turnStart', turnId: turn.id, text: turn.text, attachments: turn.attachments });
      await postNotePaths(this.deps.notes, this.log, (message) => this.deps.post(message));
      const earlier = this.conversation.turns.slice(0, this.conversation.turns.indexOf(turn));
      await this.turns.run(turn, attachments, earlier, abort);
      this.conversation.updatedAt = this.conversations.now();
    };
    await this.running.run(turn, body, async () => {
      this.deps.post({ type: 'turnEnd', turnId: turn.id });
      // The turn's applied edits are now the newest undoable change.
      void this.reviews.show();
      try {
        await this.conversations.save();
        this.postState();
      } catch (error) {
        this.log.error(`saving the conversation failed: ${describeError(error)}`);
      }
    });
  }

  private postAttachments(): void {
    this.deps.post({ type: 'attachments', attachments: this.attachments.refs });
  }
}
