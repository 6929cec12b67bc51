/**
 * The chat's side of an external agent's session: which agent session a conversation continues
 * (saved on the conversation, resumed after a reload), what the panel is told when it could not be
 * resumed, the agent's pickers and commands streamed to the panel, option changes remembered per
 * agent, the agent's own saved sessions, and a loaded session's replayed history as turns.
 */
import type { AgentControlsView, AgentSessionInfo } from '../../agents/agentControls';
import { optionFor } from '../../agents/agentControls';
import type { AgentCatalog, AgentSession } from '../../agents/agentSession';
import { describeError } from '../../errors';
import type { Disposable } from '../../lifecycle/disposable';
import { Emitter } from '../../lifecycle/emitter';
import type { AgentPreferences } from './agentPreferences';
import type { Conversation, Turn } from '../conversation/conversation';
import type { HostMessage } from '../protocol';

export interface AgentSessionPanelDeps {
  catalog: AgentCatalog;
  preferences: AgentPreferences;
  post(message: HostMessage): void;
  notice(level: 'info' | 'error', text: string): void;
  conversation(): Conversation;
  newId(): string;
  cwd(): string;
}

/** How long the agent's own control updates are gathered before the panel is told (once). */
const CONTROLS_POST_MS = 50;

export class AgentSessionPanel {
  private session: AgentSession | undefined;
  private listening: Disposable | undefined;
  private pending: ReturnType<typeof setTimeout> | undefined;
  private readonly _onDidChangeControls = new Emitter<AgentControlsView | undefined>();
  /** The running external agent's controls changed, or its session ended (undefined): the status bar's model follows. */
  readonly onDidChangeControls = this._onDidChangeControls.event;

  constructor(private readonly deps: AgentSessionPanelDeps) {}

  /** The controls of the conversation's running external session; undefined for internal agents or before the first turn. */
  get controls(): AgentControlsView | undefined {
    return this.session?.controls?.current();
  }

  /** What a new session of `agent` continues and restores (the conversation's saved agent session, the remembered choices). */
  startOptions(agent: string): { resume?: string; preferences?: Record<string, string | boolean> } {
    const conversation = this.deps.conversation();
    const resume = conversation.agentSession?.agent === agent ? conversation.agentSession.id : undefined;
    return { ...(resume ? { resume } : {}), preferences: this.deps.preferences.get(agent) };
  }

  /**
   * A session was (re)started for the conversation. Returns whether the agent already has the
   * earlier turns (resumed or loaded), so no recap is needed.
   */
  opened(session: AgentSession): boolean {
    this.follow(session);
    const opening = session.opening;
    if (!opening) return false;
    const conversation = this.deps.conversation();
    const wanted = conversation.agentSession?.agent === session.agent.name ? conversation.agentSession.id : undefined;
    conversation.agentSession = { agent: session.agent.name, id: opening.sessionId };
    if (opening.how === 'loaded' && opening.replayed?.length && conversation.turns.length === 0) conversation.turns.push(...this.replayTurns(opening.replayed));
    if (wanted && opening.how === 'new') {
      this.deps.notice('info', `${session.agent.name} could not continue its earlier session (${opening.reason ?? 'no reason given'}); it starts a new one with Hearth's recap of this conversation.`);
    }
    return opening.how !== 'new';
  }

  /** The session ended (another agent, a new conversation, a failure): its pickers go. */
  closed(): void {
    const had = this.session?.controls !== undefined;
    this.listening?.dispose();
    this.listening = undefined;
    this.session = undefined;
    if (had) {
      this.deps.post({ type: 'agentControls' });
      this._onDidChangeControls.fire(undefined);
    }
  }

  async setOption(id: string, value: string | boolean): Promise<void> {
    const session = this.session;
    if (!session?.controls) return this.deps.notice('error', 'The agent has no options to set now: send a message first to start it.');
    try {
      await session.controls.setOption(id, value);
      await this.deps.preferences.remember(session.agent.name, id, value);
    } catch (error) {
      this.deps.notice('error', describeError(error));
      // The picker shows what the agent has, not what was asked.
      this.post(session);
    }
  }

  /** `:model X` and the status bar while an external agent is active: its model option, when it has one; false otherwise. */
  async switchModel(value: string): Promise<boolean> {
    const option = this.controls ? optionFor(this.controls, 'model') : undefined;
    if (!option) return false;
    const choice = option.type === 'select' ? option.choices.find((c) => c.value === value) ?? option.choices.find((c) => c.name.toLowerCase() === value.toLowerCase()) : undefined;
    if (!choice) {
      this.deps.notice('error', `${this.session!.agent.name} has no model "${value}"${option.type === 'select' ? ` (it offers: ${option.choices.map((c) => c.value).join(', ')})` : ''}.`);
      return true;
    }
    await this.setOption(option.id, choice.value);
    this.deps.notice('info', `Model for ${this.session!.agent.name}: ${choice.name}`);
    return true;
  }

  async listSessions(agent: string): Promise<{ sessions: AgentSessionInfo[]; error?: string }> {
    if (!this.deps.catalog.listSessions) return { sessions: [], error: 'This host does not list agent sessions.' };
    try {
      return { sessions: await this.deps.catalog.listSessions(agent, this.deps.cwd()) };
    } catch (error) {
      return { sessions: [], error: describeError(error) };
    }
  }

  /**
   * The agent's session of a conversation no panel shows any more (deleted from the history) is
   * closed (session/close, the agent started just for it). Housekeeping only: the conversation is
   * gone either way, so an agent that cannot close it, or is not installed now, changes nothing.
   */
  async closeSaved(saved: { agent: string; id: string }): Promise<void> {
    await this.deps.catalog.closeSession?.(saved.agent, this.deps.cwd(), saved.id).catch(() => false);
  }

  dispose(): void {
    clearTimeout(this.pending);
    this.listening?.dispose();
    this._onDidChangeControls.dispose();
  }

  private follow(session: AgentSession): void {
    if (this.session === session) return;
    this.listening?.dispose();
    this.session = session;
    this.listening = session.controls?.onDidChange(() => this.postSoon(session));
    // Internal agents have no controls: the panel hears nothing new.
    if (session.controls) this.post(session);
  }

  /**
   * The agent's own updates are coalesced: an agent sending thousands of updates in a burst re-renders
   * the header and the `/` list a few times, not thousands (the last state always arrives).
   */
  private postSoon(session: AgentSession): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      if (this.session === session) this.post(session);
    }, CONTROLS_POST_MS);
    this.pending.unref?.();
  }

  private post(session: AgentSession): void {
    const controls = session.controls?.current();
    this.deps.post({ type: 'agentControls', ...(controls ? { controls } : {}) });
    this._onDidChangeControls.fire(controls);
  }

  private replayTurns(messages: { role: 'user' | 'assistant'; text: string }[]): Turn[] {
    const turns: Turn[] = [];
    for (const message of messages) {
      if (message.role === 'user' || turns.length === 0) {
        turns.push({ id: this.deps.newId(), text: message.role === 'user' ? message.text : '', attachments: [], events: [], status: 'done' });
        if (message.role === 'user') continue;
      }
      turns[turns.length - 1]!.events.push({ type: 'text', text: message.text });
    }
    for (const turn of turns) turn.events.push({ type: 'done', stopReason: 'end_turn' });
    return turns;
  }
}
