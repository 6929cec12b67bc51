/**
 * Which agent a chat conversation talks to: the catalog's agents (listed when a surface opens, or
 * when a name is not known yet), whether the panel shows the picker (lazy selection, until one is
 * picked), the catalog's default when a turn starts with none, and the event the status bar follows.
 */
import type { AgentCatalog, AgentDescriptor } from '../../agents/agentSession';
import { describeError } from '../../errors';
import type { Logger } from '../../host';
import { Emitter } from '../../lifecycle/emitter';
import type { Conversation } from '../conversation/conversation';

export class AgentChoice {
  agents: AgentDescriptor[] = [];
  pickerWanted = false;
  private readonly _onDidChange = new Emitter<string | undefined>({
    onListenerError: (error) => this.log.warn(`a listener of the agent failed: ${describeError(error)}`),
  });
  /** Fires with the conversation's agent whenever it changes. */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly catalog: AgentCatalog,
    private readonly log: Logger,
  ) {}

  async refresh(): Promise<void> {
    try {
      this.agents = await this.catalog.list();
    } catch (error) {
      this.log.error(`listing agents failed: ${describeError(error)}`);
    }
  }

  /** The agent called `name` when it can be picked, else why not (a line for the panel). */
  async find(name: string): Promise<AgentDescriptor | { error: string }> {
    if (this.agents.length === 0 || !this.agents.some((a) => a.name === name)) await this.refresh();
    const agent = this.agents.find((a) => a.name === name);
    if (!agent) return { error: `No agent named "${name}". Known: ${this.agents.map((a) => a.name).join(', ') || 'none'}.` };
    if (!agent.available) return { error: `${agent.name} is not available: ${agent.unavailableReason ?? 'unknown reason'}.` };
    return agent;
  }

  /** The conversation's agent: the catalog's default when none was picked yet. */
  async ensure(conversation: Conversation, notice: (text: string) => void): Promise<string> {
    if (!conversation.agent) {
      conversation.agent = await this.catalog.defaultAgent();
      this.pickerWanted = false;
      this.fire(conversation.agent);
      // Restricted Mode: say why the conversation runs on the internal agent instead of an external one.
      const fallback = await this.catalog.trustFallback?.();
      if (fallback) notice(`${fallback[0].toUpperCase()}${fallback.slice(1)}.`);
    }
    return conversation.agent;
  }

  fire(agent: string | undefined): void {
    this._onDidChange.fire(agent);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
