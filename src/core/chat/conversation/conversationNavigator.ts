import { describeError } from '../../errors';
import type { AgentChoice } from '../agents/agentChoice';
import type { AgentSessionPanel } from '../agents/agentSessionPanel';
import type { AgentSessionSlot } from '../agents/agentSessionSlot';
import type { Conversation } from './conversation';
import type { ConversationSlot } from './conversationSlot';
import type { PendingAttachments } from '../context/pendingAttachments';
import type { TurnRunner } from '../turnRunner';

export interface ConversationNavigatorDeps {
  conversations: ConversationSlot;
  agentSession: AgentSessionSlot;
  agentPanel: AgentSessionPanel;
  agentChoice: AgentChoice;
  attachments: PendingAttachments;
  turns: TurnRunner;
  /** Cancels the running turn. */
  stop(): Promise<void>;
  lazyAgentSelection(): boolean;
  confirm(message: string, detail?: string): Promise<boolean>;
  notice(level: 'info' | 'error', text: string): void;
  postState(): void;
}

/**
 * Which conversation a chat panel shows and with which agent: new, cleared, opened from the
 * history (Hearth's or the agent's own), deleted, or switched to another agent. Each move ends
 * the agent session of the conversation it leaves first.
 */
export class ConversationNavigator {
  /** Moves still running: a message sent meanwhile waits, so it lands in the conversation moved to. */
  private readonly moving = new Set<Promise<unknown>>();

  constructor(private readonly deps: ConversationNavigatorDeps) {}

  /** Resolves once no move (new, clear, open, pick, delete) is running; :new ends an agent session first, which takes a while. */
  async settled(): Promise<void> {
    while (this.moving.size > 0) await Promise.allSettled([...this.moving]);
  }

  private track(work: Promise<void>): Promise<void> {
    const tracked: Promise<void> = work.finally(() => this.moving.delete(tracked));
    tracked.catch(() => {}); // the caller of the move sees its failure; this copy only marks it done
    this.moving.add(tracked);
    return work;
  }

  private get conversation(): Conversation {
    return this.deps.conversations.current;
  }

  /**
   * Stops the running turn and ends the agent session (before the conversation or its agent
   * changes); `forGood` also closes the external agent's own session (it is not coming back).
   */
  async endSession(forGood = false): Promise<void> {
    await this.deps.stop();
    await this.deps.agentSession.end(forGood);
    this.deps.agentPanel.closed();
  }

  /**
   * Opens one of the agent's own saved sessions (from the history list) as a new conversation: the
   * agent is started at once, so a loaded session's replayed history shows before the first message.
   */
  openAgentSession(agent: string, sessionId: string, title?: string): Promise<void> {
    return this.track(this.doOpenAgentSession(agent, sessionId, title));
  }

  private async doOpenAgentSession(agent: string, sessionId: string, title?: string): Promise<void> {
    await this.endSession();
    this.deps.conversations.startNew(agent);
    this.conversation.agentSession = { agent, id: sessionId };
    if (title) this.conversation.title = title;
    this.deps.agentChoice.pickerWanted = false;
    this.fireAgent();
    try {
      await this.deps.turns.open(agent);
      await this.deps.conversations.save();
    } catch (error) {
      this.deps.notice('error', describeError(error));
    }
    this.deps.postState();
  }

  newChat(): Promise<void> {
    return this.track(this.doNewChat());
  }

  private async doNewChat(): Promise<void> {
    await this.endSession();
    // "New" keeps the agent picked for this panel; the picker shows only while none was picked.
    const agent = this.conversation.agent;
    this.deps.conversations.startNew(agent);
    this.deps.agentChoice.pickerWanted = this.deps.lazyAgentSelection() && !agent;
    this.deps.attachments.clear();
    this.fireAgent();
    this.deps.postState();
  }

  /** Empties the current conversation (and the agent's memory of it: a fresh session). */
  clear(): Promise<void> {
    return this.track(this.doClear());
  }

  private async doClear(): Promise<void> {
    await this.endSession(true);
    await this.deps.conversations.clear();
    this.deps.postState();
  }

  pickAgent(name: string): Promise<void> {
    return this.track(this.doPickAgent(name));
  }

  private async doPickAgent(name: string): Promise<void> {
    const agent = await this.deps.agentChoice.find(name);
    if ('error' in agent) return this.deps.notice('error', agent.error);
    await this.deps.stop();
    if (this.conversation.agent !== name) {
      await this.deps.agentSession.end(true);
      this.deps.agentPanel.closed();
      delete this.conversation.agentSession;
    }
    this.conversation.agent = name;
    this.deps.agentChoice.pickerWanted = false;
    this.fireAgent();
    this.deps.postState();
  }

  /** Opens the agent picker (`:agent` without a name). */
  async showPicker(): Promise<void> {
    await this.deps.agentChoice.refresh();
    this.deps.agentChoice.pickerWanted = true;
    this.deps.postState();
  }

  open(id: string): Promise<void> {
    return this.track(this.doOpen(id));
  }

  private async doOpen(id: string): Promise<void> {
    const conversation = this.deps.conversations.saved(id);
    if (!conversation) return this.deps.notice('error', 'That conversation is no longer saved.');
    await this.endSession();
    await this.deps.conversations.show(conversation);
    this.deps.agentChoice.pickerWanted = false;
    this.fireAgent();
    this.deps.postState();
  }

  delete(id: string): Promise<void> {
    return this.track(this.doDelete(id));
  }

  private async doDelete(id: string): Promise<void> {
    const agentSession = this.deps.conversations.saved(id)?.agentSession;
    if (!(await this.deps.conversations.delete(id, (message, detail) => this.deps.confirm(message, detail)))) return;
    if (id === this.conversation.id) {
      await this.endSession(true);
      return this.newChat();
    }
    this.deps.postState();
    // Not the one shown, so no agent runs for it: the agent is started just to close its session.
    if (agentSession) await this.deps.agentPanel.closeSaved(agentSession);
  }

  private fireAgent(): void {
    this.deps.agentChoice.fire(this.conversation.agent);
  }
}
