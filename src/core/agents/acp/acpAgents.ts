import type { AcpConfig } from '../../config/schema';
import type { Logger, SecretStore } from '../../host';
import type { Redactor } from '../../logging/redactingLogger';
import type { AgentSessionInfo } from '../agentControls';
import type { AgentDescriptor, AgentSession, AgentStartOptions } from '../agentSession';
import type { ExternalAgents } from '../externalAgents';
import { AcpError } from './acpErrors';
import { limitsFromConfig, type AcpLimits } from './acpLimits';
import type { AcpSession } from './session/acpSession';
import { defineAgents } from './profiles/agentProfiles';
import { resolveAgentEnv } from './connection/agentEnv';
import type { AgentConnection } from './connection/agentConnection';
import type { AgentTransport } from './connection/agentTransport';
import { probeAgents, type ProbedAgent } from './profiles/discovery';
import type { GatewayOffer } from './connection/gatewayOffer';
import type { ProtectedPathRules } from '../../fs/protectedPaths';
import type { WorkspaceEdits } from '../../changes/workspaceEdits';

export interface AcpAgentsOptions {
  config: AcpConfig;
  /** `[cli].confirm_destructive`. */
  confirmDestructive: boolean;
  log: Logger;
  env: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  redactor?: Redactor;
  /** How sessions reach Hearth's gateway; per workspace, since `hearth gateway` serves one. */
  gateway?: (cwd: string) => GatewayOffer | undefined;
  clientVersion: string;
  /** Overrides of the limits derived from `[acp]` (tests use milliseconds). */
  limits?: Partial<AcpLimits>;
  /** The configured protected paths (rules files, agent_directories) for a session's workspace; the built-in ones always apply. */
  protection?: (cwd: string) => Omit<ProtectedPathRules, 'root'>;
  /** Review and journal of a session's file writes, per workspace ([chat].review_edits). */
  edits?: (cwd: string) => WorkspaceEdits | undefined;
  /** Whether `cwd` is a trusted folder now; an agent's terminal commands run only then (absent: trusted). */
  trusted?: (cwd: string) => boolean;
  /** How agents are started: each profile's command as a process group unless injected (tests run ACP peers in-process). */
  transport?: AgentTransport;
}

/**
 * The external agents: discovered on PATH and configured as profiles, listed with availability,
 * started as ACP sessions. It owns every session it started, so `dispose` (extension deactivate,
 * CLI exit) leaves no agent process behind.
 */
export class AcpAgents implements ExternalAgents {
  private readonly limits: AcpLimits;
  private readonly sessions = new Set<AcpSession>();
  /** Set by dispose: a start still probing or loading the ACP code then makes no session. */
  private disposed = false;

  constructor(private readonly options: AcpAgentsOptions) {
    this.limits = { ...limitsFromConfig(options.config), ...options.limits };
  }

  async list(): Promise<AgentDescriptor[]> {
    return (await this.probe()).map((agent) => agent.descriptor);
  }

  /** The configured `default_agent` when it is available, else the first available one. */
  async defaultAgent(): Promise<string | undefined> {
    const agents = await this.list();
    const configured = this.options.config.default_agent;
    if (configured && agents.some((agent) => agent.name === configured && agent.available)) return configured;
    return agents.find((agent) => agent.available)?.name;
  }

  async start(name: string, options: AgentStartOptions): Promise<AgentSession> {
    const { descriptor, launch } = await this.launchOf(name, options.cwd);
    // The ACP SDK loads with the first session, not with every host that merely lists agents.
    const { AcpSession } = await import('./session/acpSession');
    // Disposed while probing or loading (the editor closing): a session started now would outlive it.
    this.assertNotDisposed();
    const session: AcpSession = new AcpSession({
      descriptor,
      ...launch,
      cwd: options.cwd,
      ...(options.kilnRoot ? { attachmentRoot: options.kilnRoot } : {}),
      host: options.host,
      log: this.options.log,
      limits: this.limits,
      confirmDestructive: this.options.confirmDestructive,
      ...(this.options.protection ? { protection: this.options.protection(options.cwd) } : {}),
      ...(this.options.edits?.(options.cwd) ? { edits: this.options.edits(options.cwd) } : {}),
      gateway: this.options.gateway?.(options.cwd),
      clientVersion: this.options.clientVersion,
      onDisposed: () => this.sessions.delete(session),
      ...(this.options.transport ? { transport: this.options.transport } : {}),
      ...(options.resume ? { resume: options.resume } : {}),
      ...(options.preferences ? { preferences: options.preferences } : {}),
      ...(this.options.redactor ? { redactor: this.options.redactor } : {}),
      ...(this.options.trusted ? { trusted: () => this.options.trusted!(options.cwd) } : {}),
      rememberKey: async (variable, key) => {
        await this.options.secrets?.store?.(signInSecret(name), JSON.stringify({ ...(await this.keptKeys(name)), [variable]: key }));
      },
      forgetKeys: async () => {
        await this.options.secrets?.store?.(signInSecret(name), '{}');
      },
    });
    this.sessions.add(session);
    try {
      await session.start();
    } catch (error) {
      await session.dispose();
      throw error;
    }
    return session;
  }

  /** Starts the agent only to ask for its saved sessions in `cwd` (session/list), then stops it. */
  listSessions(name: string, cwd: string): Promise<AgentSessionInfo[]> {
    return this.sessionless(name, cwd, (conn) => conn.listSessions(cwd));
  }

  /**
   * Starts the agent only to close one of its saved sessions (session/close), then stops it: a
   * conversation deleted while another is open frees what the agent keeps for it. False when the
   * agent offers no session/close (or did not answer in time).
   */
  closeSession(name: string, cwd: string, sessionId: string): Promise<boolean> {
    return this.sessionless(name, cwd, (conn) => conn.closeSession(this.limits.cancelGraceMs, sessionId));
  }

  /** The agent started with no session of its own, for one request; stopped after it. */
  private async sessionless<T>(name: string, cwd: string, work: (conn: AgentConnection) => Promise<T>): Promise<T> {
    const { launch } = await this.launchOf(name, cwd);
    const { AgentConnection } = await import('./connection/agentConnection');
    this.assertNotDisposed();
    const conn = await AgentConnection.open({
      ...launch,
      agentName: name,
      cwd,
      maxMessageBytes: this.limits.maxMessageBytes,
      startTimeoutMs: this.limits.startTimeoutMs,
      clientVersion: this.options.clientVersion,
      log: this.options.log.child('acp').child(name),
      sessionless: true,
      // No session is open: nothing the agent asks of the client can apply.
      side: {
        requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
        readTextFile: async () => Promise.reject(new AcpError('acp.unsupported', 'no session is open')),
        writeTextFile: async () => Promise.reject(new AcpError('acp.unsupported', 'no session is open')),
        onUpdate: () => {},
        onActivity: () => {},
        onOversized: () => {},
      },
      ...(this.options.transport ? { transport: this.options.transport } : {}),
    });
    try {
      return await work(conn);
    } finally {
      await conn.close();
    }
  }

  /** The agent's descriptor and how to start it; throws when it is unknown, unavailable or misses a variable. */
  private async launchOf(name: string, cwd: string): Promise<{ descriptor: AgentDescriptor; launch: { command: string; args: string[]; env: NodeJS.ProcessEnv } }> {
    this.assertNotDisposed();
    const probed = (await this.probe(cwd, name))[0];
    if (!probed) throw new AcpError('acp.unknown_agent', `There is no external agent named "${name}".`, 'Run `hearth agents` to see the agents Hearth knows, or add an [acp.agents.NAME] profile.');
    const launch = probed.definition.launch;
    if (!probed.descriptor.available || !launch) throw new AcpError('acp.unavailable', `Agent "${name}" is not available: ${probed.descriptor.unavailableReason ?? 'unknown reason'}`);
    const env = await resolveAgentEnv(launch.env, { env: this.options.env, secrets: this.options.secrets, redactor: this.options.redactor });
    if (env.missing.length) throw new AcpError('acp.unavailable', `Agent "${name}" needs ${env.missing.join(', ')}, which is not set.`, `Set the variable, or change env in [acp.agents.${name}].`);
    // Keys given at an earlier sign-in; a variable set in the environment or the profile wins.
    const kept = await this.keptKeys(name);
    for (const key of Object.values(kept)) this.options.redactor?.add(key);
    const merged = { ...kept, ...this.options.env, ...env.values };
    return { descriptor: probed.descriptor, launch: { command: probed.executable ?? launch.command, args: launch.args, env: merged } };
  }

  /** The keys a sign-in kept for `agent` (variable → key), from the host's secret storage. */
  private async keptKeys(agent: string): Promise<Record<string, string>> {
    const raw = await this.options.secrets?.get(signInSecret(agent)).catch(() => undefined);
    if (!raw) return {};
    try {
      const parsed: unknown = JSON.parse(raw);
      return typeof parsed === 'object' && parsed !== null ? Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')) : {};
    } catch {
      return {};
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.sessions].map((session) => session.dispose()));
  }

  /** Synchronous, for `process.on('exit')`: kills every agent tree without waiting. */
  killNow(): void {
    for (const session of this.sessions) session.killNow();
  }

  private assertNotDisposed(): void {
    if (this.disposed) throw new AcpError('acp.disposed', 'The external agents were shut down (the editor or command is ending); no agent was started.');
  }

  private probe(cwd?: string, only?: string): Promise<ProbedAgent[]> {
    const definitions = defineAgents(this.options.config.agents, this.options.config.enable_discovery).filter((definition) => only === undefined || definition.name === only);
    return probeAgents(definitions, this.options.env, cwd, this.limits.probeTimeoutMs);
  }
}

/** Where a sign-in key is kept in the host's secret storage (never in config files or logs). */
export function signInSecret(agent: string): string {
  return `hearth.acp.${agent}.signInKeys`;
}
