/**
 * Every agent a surface can start: the internal ones (the built-in `kiln` and the cards) and the
 * external ACP agents behind ExternalAgents. Cards are re-read on each call, so a card edited on
 * disk applies to the next conversation without a reload. Every started session is recorded.
 */
import type { HearthConfig } from '../config/schema';
import { describeError } from '../errors';
import type { Logger } from '../host';
import type { AgentCard, AgentCardProblem } from './agentCard';
import type { AgentSessionInfo } from './agentControls';
import { BUILTIN_AGENT_NAME, describeCard, type LoadedCards } from './agentCards';
import { AgentError } from './agentErrors';
import type { AgentCatalog, AgentDescriptor, AgentSession, AgentStartOptions } from './agentSession';
import type { ExternalAgents } from './externalAgents';
import type { TranscriptStore } from './transcripts';

export interface AgentCatalogOptions {
  config: () => HearthConfig;
  loadCards: () => Promise<LoadedCards>;
  startInternal: (card: AgentCard, options: AgentStartOptions) => Promise<AgentSession>;
  /** The ACP side; absent where it is not wired (then only internal agents exist). */
  external?: ExternalAgents;
  /**
   * Why external agents may not run here (the folder is not trusted), or undefined when they may
   * (DESIGN.md decision 14). Absent: always allowed.
   */
  untrustedReason?: () => string | undefined;
  /** Absent: sessions are not recorded (tests, or a host without storage). */
  transcripts?: TranscriptStore;
  log: Logger;
}

export class HearthAgentCatalog implements AgentCatalog {
  private readonly log: Logger;

  constructor(private readonly options: AgentCatalogOptions) {
    this.log = options.log.child('agents');
  }

  /** Where this catalog's sessions are recorded (history views list and read it); undefined when not recorded. */
  get transcripts(): TranscriptStore | undefined {
    return this.options.transcripts;
  }

  /** Cards that could not be loaded, with file and reason (`hearth agents` and the editor show them). */
  async cardProblems(): Promise<AgentCardProblem[]> {
    return (await this.options.loadCards()).problems;
  }

  async cards(): Promise<AgentCard[]> {
    return [...(await this.options.loadCards()).cards.values()];
  }

  async list(): Promise<AgentDescriptor[]> {
    const internal = (await this.cards()).map(describeCard);
    const taken = new Set(internal.map((agent) => agent.name));
    const external = (await this.externalAgents()).filter((agent) => {
      if (!taken.has(agent.name)) return true;
      this.log.warn(`the external agent "${agent.name}" has the name of an internal agent card; the card wins (rename one of them)`);
      return false;
    });
    return [...internal, ...external];
  }

  /**
   * `[acp].default_agent` when it names an agent that can run; otherwise `agent_preference`: `acp`
   * takes the first available external agent, `internal` (or no external agent) the built-in `kiln`.
   */
  async defaultAgent(): Promise<string> {
    const { acp, chat } = this.options.config();
    const agents = await this.list();
    if (acp.default_agent) {
      const named = agents.find((agent) => agent.name === acp.default_agent);
      if (named?.available) return named.name;
      const why = named ? `is not available (${named.unavailableReason ?? 'unknown reason'})` : 'is not a known agent';
      this.log.warn(`default_agent "${acp.default_agent}" ${why}; using agent_preference "${chat.agent_preference}" instead`);
    }
    if (chat.agent_preference === 'acp') {
      const external = agents.find((agent) => agent.kind === 'external' && agent.available);
      if (external) return external.name;
      const fallback = this.fallbackFor(agents);
      if (fallback) this.log.warn(`${fallback}`);
    }
    return BUILTIN_AGENT_NAME;
  }

  async trustFallback(): Promise<string | undefined> {
    const { acp, chat } = this.options.config();
    if (chat.agent_preference !== 'acp' || !this.options.untrustedReason?.()) return undefined;
    const agents = await this.list();
    if (acp.default_agent && agents.some((agent) => agent.name === acp.default_agent && agent.available)) return undefined;
    return this.fallbackFor(agents);
  }

  private fallbackFor(agents: readonly AgentDescriptor[]): string | undefined {
    const untrusted = this.options.untrustedReason?.();
    if (!untrusted || !agents.some((agent) => agent.kind === 'external')) return undefined;
    return `agent_preference "acp": ${untrusted}; using the internal agent "${BUILTIN_AGENT_NAME}"`;
  }

  async start(name: string, options: AgentStartOptions): Promise<AgentSession> {
    const card = (await this.options.loadCards()).cards.get(name);
    let session: AgentSession;
    if (card) session = await this.options.startInternal(card, options);
    else {
      const external = (await this.externalAgents()).find((agent) => agent.name === name);
      if (!external || !this.options.external) {
        const known = (await this.list()).map((agent) => agent.name).join(', ');
        throw new AgentError('agent.unknown', `no agent named "${name}" (known: ${known}); \`hearth agents\` lists them`);
      }
      if (!external.available) throw new AgentError('agent.unavailable', `the agent "${name}" is not available: ${external.unavailableReason ?? 'unknown reason'}`);
      session = await this.options.external.start(name, options);
    }
    return this.options.transcripts ? this.options.transcripts.record(session, options.cwd) : session;
  }

  async listSessions(name: string, cwd: string): Promise<AgentSessionInfo[]> {
    const external = (await this.externalAgents()).find((agent) => agent.name === name);
    if (!external || !this.options.external?.listSessions) throw new AgentError('agent.unknown', `"${name}" is not an external agent; only external agents keep sessions of their own`);
    if (!external.available) throw new AgentError('agent.unavailable', `the agent "${name}" is not available: ${external.unavailableReason ?? 'unknown reason'}`);
    return this.options.external.listSessions(name, cwd);
  }

  async closeSession(name: string, cwd: string, sessionId: string): Promise<boolean> {
    const external = (await this.externalAgents()).find((agent) => agent.name === name);
    if (!external?.available || !this.options.external?.closeSession) return false;
    return this.options.external.closeSession(name, cwd, sessionId);
  }

  /** External discovery failing must not hide the internal agents; in an untrusted folder none is available. */
  private async externalAgents(): Promise<AgentDescriptor[]> {
    if (!this.options.external) return [];
    try {
      const agents = await this.options.external.list();
      const untrusted = this.options.untrustedReason?.();
      return untrusted ? agents.map((agent) => ({ ...agent, available: false, unavailableReason: untrusted })) : agents;
    } catch (error) {
      this.log.warn(`listing external agents failed: ${describeError(error)}`);
      return [];
    }
  }
}
