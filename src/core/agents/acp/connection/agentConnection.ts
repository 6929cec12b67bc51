import * as acp from '@agentclientprotocol/sdk';
import type { Logger } from '../../../host';
import { AcpError } from '../acpErrors';
import { spawnAgent } from './agentProcess';
import { agentStream } from './agentStream';
import type { AgentChannel, AgentTransport } from './agentTransport';
import { gatewayServers, type GatewayOffer } from './gatewayOffer';
import { rpcErrorText } from './rpcErrorText';
import { AcpAuthError, authMethodsOf, isAuthRequired } from './authMethods';
import { listSessions, openSession, type OpenedSession } from './sessionOpener';
import type { AgentSessionInfo } from '../../agentControls';

/** What the agent may ask of Hearth while the connection is up (implemented by the session). */
export interface ClientSide {
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse>;
  /** A `session/update` notification, in arrival order, before any later response is seen. */
  onUpdate(params: { sessionId?: unknown; update?: unknown }): void;
  /** Any message from the agent: it is alive (feeds the streaming time-out). */
  onActivity(): void;
  onOversized(limit: number): void;
  /** The terminal capability; absent: `terminal: false` is declared. */
  terminals?: {
    create(params: acp.CreateTerminalRequest, signal: AbortSignal): Promise<acp.CreateTerminalResponse>;
    output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse;
    waitForExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
    kill(params: acp.KillTerminalRequest): Record<string, never>;
    release(params: acp.ReleaseTerminalRequest): Record<string, never>;
  };
}

export interface ConnectOptions {
  agentName: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  gateway?: GatewayOffer;
  maxMessageBytes: number;
  startTimeoutMs: number;
  clientVersion: string;
  /** The session's logger, which names the agent (`[acp:<agent>]`). */
  log: Logger;
  side: ClientSide;
  /** How the agent is started; the profile's command as a process group unless injected (tests run peers in-process). */
  transport?: AgentTransport;
  /** An earlier session to continue (session/resume, else session/load, else a new one). */
  resume?: string;
  /** Only initialize (listing sessions, signing in): no session is opened. */
  sessionless?: boolean;
  /** A sign-in method the user chose: `authenticate` is called before the session opens. */
  authenticate?: string;
}

/**
 * One running agent with an initialized ACP connection and one `session/new` session.
 * A crash or a restart makes a new AgentConnection; the AcpSession above outlives them.
 */
export class AgentConnection {
  private constructor(
    readonly process: AgentChannel,
    readonly connection: acp.ClientConnection,
    readonly init: acp.InitializeResponse,
    /** The session this connection talks to; empty for a sessionless connection. */
    readonly opened: OpenedSession,
    private readonly agentName: string,
  ) {}

  get sessionId(): string {
    return this.opened.sessionId;
  }

  get agentCapabilities(): acp.AgentCapabilities | undefined {
    return this.init.agentCapabilities;
  }

  static async open(options: ConnectOptions): Promise<AgentConnection> {
    const { log, agentName } = options;
    let proc: AgentChannel;
    try {
      const start = options.transport ?? spawnAgent;
      proc = await start({ command: options.command, args: options.args, env: options.env, cwd: options.cwd, onStderrLine: (line) => log.debug(`${line}`) });
    } catch (error) {
      throw new AcpError('acp.spawn_failed', `Could not start agent "${agentName}" (${options.command}): ${(error as Error).message}`, `Check the command in [acp.agents.${agentName}] or install the agent.`, { cause: error });
    }
    const side = options.side;
    const stream = agentStream(proc.output, proc.input, {
      maxMessageBytes: options.maxMessageBytes,
      intercept(message) {
        side.onActivity();
        if ('method' in message && !('id' in message) && message.method === acp.methods.client.session.update) {
          side.onUpdate((message.params ?? {}) as { sessionId?: unknown; update?: unknown });
          return true;
        }
        return false;
      },
      onMalformed: (reason, sample) => log.warn(`skipped a malformed message (${reason}): ${sample}`),
      onOversized: (limit) => side.onOversized(limit),
    });
    let client = acp
      .client({ name: 'hearth' })
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => side.requestPermission(params, signal))
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => side.readTextFile(params))
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params, signal }) => side.writeTextFile(params, signal));
    const terminals = side.terminals;
    if (terminals) {
      client = client
        .onRequest(acp.methods.client.terminal.create, ({ params, signal }) => terminals.create(params, signal))
        .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params))
        .onRequest(acp.methods.client.terminal.waitForExit, ({ params, signal }) => terminals.waitForExit(params, signal))
        .onRequest(acp.methods.client.terminal.kill, ({ params }) => terminals.kill(params))
        .onRequest(acp.methods.client.terminal.release, ({ params }) => terminals.release(params));
    }
    const connection = client.connect(stream);
    try {
      const ready = (async () => {
        const init = await connection.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: terminals !== undefined, auth: { terminal: true } },
          clientInfo: { name: 'hearth', version: options.clientVersion },
        });
        try {
          if (options.authenticate) await connection.agent.request(acp.methods.agent.authenticate, { methodId: options.authenticate });
          if (options.sessionless) return new AgentConnection(proc, connection, init, { sessionId: '', how: 'new', response: undefined }, agentName);
          const mcpServers = gatewayServers(options.gateway, init.agentCapabilities?.mcpCapabilities?.http === true);
          const opened = await openSession(connection, init.agentCapabilities, { agentName, cwd: options.cwd, mcpServers, ...(options.resume ? { resume: options.resume } : {}) });
          return new AgentConnection(proc, connection, init, opened, agentName);
        } catch (error) {
          // Refused until the user signs in: the methods go up with the error, for the surface to offer.
          if (isAuthRequired(error)) throw new AcpAuthError(agentName, authMethodsOf(init.authMethods, { command: options.command, args: options.args }), rpcErrorText(error));
          throw error;
        }
      })();
      return await within(ready, proc, options.startTimeoutMs, agentName);
    } catch (error) {
      connection.close();
      // A write to an agent that is dying fails first (EPIPE); its exit explains more.
      const exit = await Promise.race([proc.exit, new Promise<undefined>((done) => setTimeout(() => done(undefined), 200))]);
      await proc.stop(200);
      if (error instanceof AcpError) throw error;
      if (exit) {
        const stderr = proc.stderr ? `: ${proc.stderr.slice(-500)}` : '';
        throw new AcpError('acp.agent_exited', `Agent "${agentName}" exited during start-up (${exit.signal ?? `code ${exit.code}`})${stderr}`, undefined, { cause: error });
      }
      const stderr = proc.stderr ? `\n${proc.stderr.slice(-500)}` : '';
      throw new AcpError('acp.handshake_failed', `Agent "${agentName}" did not start a session: ${rpcErrorText(error)}${stderr}`, 'Run the agent\'s command in a terminal to see whether it needs logging in or setting up.', { cause: error });
    }
  }

  get exited(): boolean {
    return this.process.hasExited;
  }

  prompt(prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    return this.connection.agent.request(acp.methods.agent.session.prompt, { sessionId: this.sessionId, prompt });
  }

  /** Any agent method on this session's connection (set_config_option, set_mode, set_model). */
  request<T = unknown>(method: string, params: Record<string, unknown>): Promise<T> {
    return this.connection.agent.request<T>(method, { sessionId: this.sessionId, ...params });
  }

  listSessions(cwd: string): Promise<AgentSessionInfo[]> {
    return listSessions(this.connection, this.agentCapabilities, this.agentName, cwd);
  }

  /** session/close where the agent offers it (it frees what it keeps for the session); false when not offered. */
  async closeSession(timeoutMs: number, sessionId = this.sessionId): Promise<boolean> {
    if (!this.agentCapabilities?.sessionCapabilities?.close || !sessionId || this.exited) return false;
    const closed = this.connection.agent.request(acp.methods.agent.session.close, { sessionId }).then(() => true);
    return Promise.race([closed, new Promise<boolean>((done) => setTimeout(() => done(false), timeoutMs).unref?.())]);
  }

  /** `logout` where the agent offers it; false when it does not. */
  async logout(): Promise<boolean> {
    if (!this.agentCapabilities?.auth?.logout) return false;
    await this.connection.agent.request(acp.methods.agent.logout, {});
    return true;
  }

  cancel(): void {
    this.connection.agent.notify(acp.methods.agent.session.cancel, { sessionId: this.sessionId }).catch(() => {});
  }

  async close(graceMs?: number): Promise<void> {
    this.connection.close();
    await this.process.stop(graceMs);
  }
}

/** The handshake, bounded by a time-out and by the process exiting first. */
async function within<T>(work: Promise<T>, proc: AgentChannel, ms: number, agentName: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const fail = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AcpError('acp.handshake_failed', `Agent "${agentName}" did not answer initialize/session/new within ${Math.round(ms / 1000)} s`)), ms);
    proc.exit.then(({ code, signal }) => {
      const stderr = proc.stderr ? `: ${proc.stderr.slice(-500)}` : '';
      reject(new AcpError('acp.agent_exited', `Agent "${agentName}" exited during start-up (${signal ?? `code ${code}`})${stderr}`));
    });
  });
  try {
    return await Promise.race([work, fail]);
  } finally {
    clearTimeout(timer);
  }
}
