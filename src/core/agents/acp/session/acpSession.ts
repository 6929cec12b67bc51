import { randomUUID } from 'node:crypto';
import { describeError } from '../../../errors';
import type { Logger } from '../../../host';
import type { AgentDescriptor, AgentEvent, AgentSession, PromptAttachment } from '../../agentSession';
import { AcpError } from '../acpErrors';
import { AgentConnection, type ClientSide } from '../connection/agentConnection';
import type { AcpSessionOptions } from './acpSessionOptions';
import { EventChannel } from './eventChannel';
import { AgentRequests } from '../requests/agentRequests';
import { PermissionBroker } from '../requests/permissionBroker';
import { runTurn, type Turn, type TurnContext } from './promptTurn';
import { StreamingWatchdog } from './streamingWatchdog';
import { ToolCallTracker } from '../requests/updateEvents';
import { WorkspaceFiles } from '../requests/workspaceFiles';
import type { SessionOpening } from '../../agentControls';
import { LiveControls } from './liveControls';
import { ReplayCollector } from './replayCollector';
import { openWithSignIn } from './signInFlow';
import { clientSideFor, errorEvent } from './acpClientSide';
import { AgentTerminals } from '../requests/agentTerminals';

/**
 * An external agent behind the AgentSession contract. The process is started on first use and
 * again after it crashed or was stopped for idleness, so the session object stays usable; what the
 * agent forgets across a restart, Hearth's transcript keeps.
 */
export class AcpSession implements AgentSession {
  readonly id = randomUUID();
  /** The agent's own session id, kept across restarts of its process so each restart resumes it. */
  private agentSessionId: string | undefined;
  private openingResult: SessionOpening | undefined;
  /** Keys given at sign-in, in the agent's environment from its next start on. */
  private readonly signInEnv: Record<string, string> = {};
  /** Collects the history an agent replays while session/load runs (first opening only). */
  private replay: ReplayCollector | undefined;
  readonly controls: LiveControls;
  private conn: AgentConnection | undefined;
  private starting: Promise<AgentConnection> | undefined;
  private turn: Turn | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly tools = new ToolCallTracker();
  private readonly requests: AgentRequests;
  /** Commands the agent runs through Hearth (terminal/*); ended with the turn's cancel and the session. */
  private readonly terminals: AgentTerminals;
  /** `[acp:<agent>]`: the session's lines and those of its connection, requests and permission prompts. */
  private readonly log: Logger;

  constructor(private readonly options: AcpSessionOptions) {
    this.log = options.log.child('acp').child(options.descriptor.name);
    this.agentSessionId = options.resume;
    this.controls = new LiveControls(options.descriptor.name, () => this.connection(), this.log);
    const broker = new PermissionBroker(options.host, this.log);
    this.terminals = new AgentTerminals({
      agentName: options.descriptor.name,
      workspaceRoot: options.cwd,
      env: options.env,
      trusted: options.trusted ?? (() => true),
      broker,
      log: this.log,
      push: (event) => this.turn?.channel.push(event),
      turnSignal: () => this.turn?.controller.signal,
      waitingForUser: (work) => this.whileWaitingForUser(work),
    });
    this.requests = new AgentRequests({
      agentName: options.descriptor.name,
      log: this.log,
      broker,
      files: new WorkspaceFiles(options.cwd, options.limits.maxMessageBytes, options.protection),
      confirmDestructive: options.confirmDestructive,
      ...(options.edits ? { edits: options.edits } : {}),
      workspaceRoot: options.cwd,
      turnId: () => this.turn?.id,
      tools: this.tools,
      push: (event) => this.turn?.channel.push(event),
      turnSignal: () => this.turn?.controller.signal,
      waitingForUser: (work) => this.whileWaitingForUser(work),
    });
  }

  get agent(): AgentDescriptor {
    return this.options.descriptor;
  }

  /** The running agent's pid (tests and diagnostics); undefined when none runs or it is not a process. */
  get pid(): number | undefined {
    return this.conn && !this.conn.exited ? this.conn.process.pid : undefined;
  }

  /** How the session was opened (new, resumed, loaded with its history); undefined before the agent started. */
  get opening(): SessionOpening | undefined {
    return this.openingResult;
  }

  /**
   * Ends the conversation's session for good: `session/close` where the agent offers it (it frees
   * what it keeps), then the process. A plain dispose (a reload) leaves the session resumable.
   */
  async end(): Promise<void> {
    const conn = this.conn;
    if (conn && !this.turn) {
      const closed = await conn.closeSession(2_000).catch((error) => (this.log.debug(`session/close failed: ${describeError(error)}`), false));
      if (closed) this.log.info(`closed session ${conn.sessionId}`);
    }
    await this.dispose();
  }

  /** Starts the agent now rather than on the first prompt (so start-up errors show early). */
  async start(): Promise<void> {
    await this.connection();
    this.armIdle();
  }

  async *prompt(text: string, attachments: PromptAttachment[] = [], signal?: AbortSignal): AsyncIterable<AgentEvent> {
    // A turn whose reader left is still being cancelled: the agent must finish it before the next.
    if (this.turn?.channel.isEnded) await this.turn.finished;
    if (this.disposed || this.turn) {
      const error = this.disposed ? disposedError() : new AcpError('acp.busy', `Agent "${this.agent.name}" is still answering; wait for it or cancel.`);
      yield errorEvent(error);
      yield { type: 'done', stopReason: 'error' };
      return;
    }
    clearTimeout(this.idleTimer);
    const turn: Turn = { id: `${this.id}-${randomUUID().slice(0, 8)}`, channel: new EventChannel(), controller: new AbortController(), watchdog: new StreamingWatchdog(this.options.limits.streamingIdleMs) };
    this.turn = turn;
    turn.finished = runTurn(turn, text, attachments, signal, this.turnContext())
      .catch((error) => this.log.error(`turn failed unexpectedly: ${describeError(error)}`))
      .finally(() => {
        turn.channel.end();
        if (this.turn === turn) this.turn = undefined;
        this.armIdle();
      });
    try {
      for await (const event of turn.channel) yield event;
    } finally {
      // A consumer that stops reading early cancels the turn.
      if (!turn.channel.isEnded) turn.controller.abort();
      turn.channel.end();
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.idleTimer);
    this.terminals.killAll();
    this.turn?.controller.abort();
    this.turn?.channel.push({ type: 'done', stopReason: 'cancelled' });
    this.turn?.channel.end();
    const conn = this.conn ?? (await this.starting?.catch(() => undefined));
    this.conn = undefined;
    await conn?.close();
    this.controls.dispose();
    this.options.onDisposed?.();
  }

  /** For exit handlers: ends the process tree at once, without waiting. */
  killNow(): void {
    this.disposed = true;
    this.terminals.killAll();
    clearTimeout(this.idleTimer);
    this.conn?.process.killNow();
  }

  private turnContext(): TurnContext {
    return {
      agentName: this.agent.name,
      limits: this.options.limits,
      attachmentRoot: this.options.attachmentRoot ?? this.options.cwd,
      log: this.log,
      connection: () => this.connection(),
      dropConnection: (conn) => this.dropConnection(conn),
      killTerminals: () => this.terminals.killAll(),
    };
  }

  private async whileWaitingForUser<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.turn;
    if (!turn) return work();
    return turn.watchdog.whileWaitingForUser(work, () => turn.channel.isEnded);
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.disposed || this.turn || !this.conn) return;
    this.idleTimer = setTimeout(() => {
      const conn = this.conn;
      if (!conn || this.turn) return;
      this.log.info(`session idle for ${Math.round(this.options.limits.sessionIdleMs / 60_000)} min; stopping the agent`);
      this.dropConnection(conn);
      void conn.close();
    }, this.options.limits.sessionIdleMs);
    this.idleTimer.unref?.();
  }

  private dropConnection(conn: AgentConnection): void {
    if (this.conn === conn) this.conn = undefined;
  }

  /** Signs out where the agent offers `logout`, and forgets the keys Hearth kept for it; false when it offers none. */
  async logout(): Promise<boolean> {
    const conn = await this.connection();
    const done = await conn.logout();
    for (const variable of Object.keys(this.signInEnv)) delete this.signInEnv[variable];
    await this.options.forgetKeys?.();
    return done;
  }

  private connection(): Promise<AgentConnection> {
    if (this.disposed) return Promise.reject(disposedError());
    if (this.conn && !this.conn.exited) return Promise.resolve(this.conn);
    if (!this.starting && this.agentSessionId && !this.openingResult) this.replay = new ReplayCollector();
    this.starting ??= openWithSignIn((authenticate) => this.open(authenticate), {
      agentName: this.agent.name,
      host: this.options.host,
      env: this.options.env,
      signInEnv: this.signInEnv,
      log: this.log,
      ...(this.options.redactor ? { redactor: this.options.redactor } : {}),
      ...(this.options.rememberKey ? { rememberKey: this.options.rememberKey } : {}),
    }).finally(() => (this.starting = undefined));
    return this.starting;
  }

  private open(authenticate?: string): Promise<AgentConnection> {
    return AgentConnection.open({
      agentName: this.agent.name,
      command: this.options.command,
      args: this.options.args,
      env: { ...this.options.env, ...this.signInEnv },
      ...(authenticate ? { authenticate } : {}),
      cwd: this.options.cwd,
      gateway: this.options.gateway,
      maxMessageBytes: this.options.limits.maxMessageBytes,
      startTimeoutMs: this.options.limits.startTimeoutMs,
      clientVersion: this.options.clientVersion,
      log: this.log,
      side: this.clientSide(),
      transport: this.options.transport,
      ...(this.agentSessionId ? { resume: this.agentSessionId } : {}),
    })
      .then(async (conn) => {
        if (this.disposed) {
          await conn.close();
          throw disposedError();
        }
        const replayed = this.replay?.messages;
        this.replay = undefined;
        const { sessionId, how, reason } = conn.opened;
        if (reason) this.log.warn(`could not continue session ${this.agentSessionId}: ${reason}; started ${sessionId}`);
        this.openingResult = { sessionId, how, ...(reason ? { reason } : {}), ...(how === 'loaded' && replayed?.length ? { replayed } : {}) };
        this.agentSessionId = sessionId;
        this.controls.state.applyResponse(conn.opened.response);
        this.conn = conn;
        await this.controls.restore(this.options.preferences ?? {});
        conn.process.exit.then(({ code, signal }) => {
          if (this.conn === conn) this.log.warn(`the agent exited (${signal ?? `code ${code}`})`);
          this.dropConnection(conn);
        });
        return conn;
      });
  }

  private clientSide(): ClientSide {
    return clientSideFor({
      agentName: this.agent.name,
      log: this.log,
      turn: () => this.turn,
      connectedSessionId: () => this.conn?.sessionId,
      controls: this.controls.state,
      replay: () => this.replay,
      tools: this.tools,
      requests: this.requests,
      terminals: this.terminals,
    });
  }
}

function disposedError(): AcpError {
  return new AcpError('acp.disposed', 'This agent session has ended; start a new one.');
}
