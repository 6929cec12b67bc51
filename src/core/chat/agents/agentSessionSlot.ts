import type { AgentCatalog, AgentSession, AgentStartOptions } from '../../agents/agentSession';
import { describeError } from '../../errors';
import type { Logger } from '../../host';

/**
 * The one agent session a chat conversation talks to: started on the first turn and kept across
 * turns, so the agent remembers them; another agent, or a model change under an internal agent,
 * needs a fresh one.
 */
export class AgentSessionSlot {
  private session: AgentSession | undefined;
  /** The model changed since the session started (see modelChanged). */
  private stale = false;
  /** The model id the session started on: a config edit changes the model without any switch event. */
  private startedOn: string | undefined;

  constructor(
    private readonly catalog: AgentCatalog,
    private readonly log: Logger,
  ) {}

  /**
   * The session for `agent`: the current one, or a new one started with `options()`. `fresh` says
   * it is new, so it has not seen the conversation's earlier turns.
   */
  async ensure(agent: string, options: () => AgentStartOptions, model?: string): Promise<{ session: AgentSession; fresh: boolean }> {
    // An internal agent talks to the model it started on: when the header's model differs now
    // (a switch, or `[llm].default` / `default_model` edited in the config), the next turn and a
    // Retry start a new session on it (seeded with the conversation, so nothing is forgotten).
    const moved = this.session?.agent.kind === 'internal' && model !== undefined && model !== this.startedOn;
    if (this.session && this.session.agent.name === agent && !this.stale && !moved) return { session: this.session, fresh: false };
    this.stale = false;
    await this.end();
    this.startedOn = model;
    this.session = await this.catalog.start(agent, options());
    return { session: this.session, fresh: true };
  }

  /** The session's model changed (anywhere: status bar, palette, `:model`). */
  modelChanged(): void {
    // An internal agent reads the model when its session starts: the next turn starts a new one.
    if (this.session?.agent.kind === 'internal') this.stale = true;
  }

  /** The running session, if any. */
  get current(): AgentSession | undefined {
    return this.session;
  }

  /**
   * Ends the session. `forGood` (the conversation is cleared, deleted or moves to another agent)
   * also closes an external agent's own session; otherwise it stays resumable (a reload, another
   * conversation opened).
   */
  async end(forGood = false): Promise<void> {
    const session = this.session;
    this.session = undefined;
    await (forGood && session?.end ? session.end() : session?.dispose())?.catch((error) => this.log.child('chat').warn(`ending the agent session failed: ${describeError(error)}`));
  }
}
