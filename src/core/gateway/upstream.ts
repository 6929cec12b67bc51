import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult, type LoggingLevel, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { createUpstreamClient, responsesAfterNotifications } from './upstreamClient';
import type { CatalogChange, UpstreamOptions, UpstreamState, UpstreamTool } from './upstreamTypes';
import type { McpServerConfig } from '../config/schema';
import { describeError } from '../errors';
import type { Logger } from '../host';
import { scrubForeign } from '../logging/redactor';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';
import { Emitter } from '../lifecycle/emitter';
import { GatewayError } from './gatewayErrors';
import { exposedToolName } from './toolNames';
import { connectFailure, signInFailure, unavailable } from './upstreamFailures';
import { listUpstreamTools } from './upstreamTools';
import { configuredTransport, type UpstreamConnection } from './upstreamTransport';

export type { CatalogChange, UpstreamOptions, UpstreamState, UpstreamTool } from './upstreamTypes';

/**
 * timeout_secs is the reference's tool-call timeout; a start (npx fetching a package, a cold
 * runtime) may take longer than a call should, so it only ever raises the handshake's limit.
 */
export function handshakeLimitMs(timeoutSecs: number): number {
  return Math.max(timeoutSecs, 30) * 1000;
}

/**
 * One supervised connection to an upstream MCP server: connects, lists and filters its tools,
 * reconnects with backoff when the connection drops (any transport), and refuses calls at once
 * while it is down rather than letting them hang until the timeout.
 */
export class Upstream {
  private client: Client | undefined;
  private transport: UpstreamConnection | undefined;
  /** Bumped on every connect/stop; callbacks from an older connection see the mismatch and do nothing. */
  private generation = 0;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private inflight: Promise<void> | undefined;
  private stopped = true;
  private _tools: UpstreamTool[] = [];
  private _state: UpstreamState = { kind: 'stopped' };
  private readonly _onDidChange = new Emitter<Upstream>();
  private readonly log: Logger;
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidChangeCatalog = new Emitter<CatalogChange>();
  /** The upstream said its resources or prompts changed (list_changed), or a subscribed resource did. */
  readonly onDidChangeCatalog = this._onDidChangeCatalog.event;
  /** The log level a gateway client asked for; applied to every connection from now on. */
  private logLevel: LoggingLevel | undefined;
  /** A sign-in refusal seen on generation `gen`'s connection (its close is then reported as that). */
  private signInSeen: { gen: number; error: GatewayError } | undefined;

  constructor(
    readonly config: McpServerConfig,
    private readonly options: UpstreamOptions,
  ) {
    this.log = options.log.child('mcp').child(config.name);
  }

  get name(): string {
    return this.config.name;
  }

  get state(): UpstreamState {
    return this._state;
  }

  /** The filtered tools from the last successful listing (kept while down, so calls can be routed to a clear error). */
  get tools(): readonly UpstreamTool[] {
    return this._tools;
  }

  /** Starts connecting; resolves when the first attempt has settled (ready or down), never rejects. */
  start(): Promise<void> {
    if (!this.stopped) return this.inflight ?? Promise.resolve();
    this.stopped = false;
    this.attempt = 0;
    return this.connect();
  }

  /** Disconnects and ends the server's whole process tree; no retry follows. */
  async stop(): Promise<void> {
    this.stopped = true;
    const { client, transport } = this.detach();
    await Promise.allSettled([client?.close(), transport?.close()]);
    await this.inflight?.catch(() => {});
    this.setState({ kind: 'stopped' });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Synchronous (process exit, editor shutdown): signals a stdio server's whole tree without waiting. */
  killNow(signal?: NodeJS.Signals): void {
    this.transport?.killNow?.(signal);
  }

  dispose(): void {
    this._onDidChange.dispose();
    this._onDidChangeCatalog.dispose();
  }

  /** The live client while ready (resources and prompts are asked through it). */
  get connectedClient(): Client | undefined {
    return this._state.kind === 'ready' ? this.client : undefined;
  }

  /** Forwards logging/setLevel, now and on every reconnect, to an upstream that declares logging. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    const client = this.connectedClient;
    if (client?.getServerCapabilities()?.logging) await client.setLoggingLevel(level, { timeout: 5000 }).catch((error) => this.log.debug(`logging/setLevel: ${describeError(error)}`));
  }

  /**
   * Calls one of this upstream's tools by its own (unprefixed) name, bounded by timeout_secs. With
   * `onprogress` the upstream gets a progress token and its progress notifications come back.
   */
  async callTool(originalName: string, args: Record<string, unknown> | undefined, signal?: AbortSignal, onprogress?: (progress: Progress) => void): Promise<CallToolResult> {
    const exposed = exposedToolName(this.config.prefix, originalName);
    const client = this.client;
    if (this._state.kind !== 'ready' || !client) throw this.downError(exposed);
    const gen = this.generation;
    const limit = this.config.timeout_secs;
    try {
      return (await client.callTool({ name: originalName, arguments: args }, undefined, { timeout: limit * 1000, signal, onprogress })) as CallToolResult;
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        throw new GatewayError('gateway.upstream_timeout', `Tool "${exposed}" on upstream "${this.name}" did not answer within ${limit} s (timeout_secs)`, this.name, { cause: error });
      }
      if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
        throw new GatewayError('gateway.upstream_call', `Tool "${exposed}" on upstream "${this.name}" failed: ${this.scrub(error.message)}`, this.name, { cause: error });
      }
      if (signal?.aborted) throw error;
      // Anything else means the connection itself failed (process gone, HTTP refused): the upstream is down.
      this.dropped(gen, this.brokenReason() ?? describeError(error));
      throw this.downError(exposed);
    }
  }

  private downError(exposed: string): GatewayError {
    return unavailable(this.config, exposed, this._state);
  }

  private connect(): Promise<void> {
    const run = this.connectOnce();
    this.inflight = run;
    return run;
  }

  private async connectOnce(): Promise<void> {
    const gen = ++this.generation;
    this.clearTimers();
    this.setState({ kind: 'connecting' });
    const log = this.log;
    let transport: UpstreamConnection | undefined;
    try {
      const open = this.options.transport ?? configuredTransport;
      transport = await open(this.config, {
        env: this.options.env,
        resolveSecret: this.options.resolveSecret,
        cwd: this.options.cwd,
        stopGraceMs: this.options.stopGraceMs,
        maxMessageBytes: this.config.max_message_mb * 1024 * 1024,
        onTooLarge: () => this.dropped(gen, `it sent a message of more than ${this.config.max_message_mb} MB (max_message_mb = ${this.config.max_message_mb})`),
        onStderrLine: (line) => log.debug(`${line}`),
        onUnresolved: (key, reference) => log.warn(`env ${key} = "${reference}" is not set; the server starts without it`),
        oauth: this.options.oauthStore && { store: this.options.oauthStore, redactor: this.options.redactor },
        name: this.name,
      });
      if (gen !== this.generation) return;
      this.transport = transport;
      const client = createUpstreamClient(this.name, this.options.relay, {
        toolsChanged: () => void this.refreshTools(gen),
        resourcesChanged: () => gen === this.generation && this._onDidChangeCatalog.fire('resources'),
        promptsChanged: () => gen === this.generation && this._onDidChangeCatalog.fire('prompts'),
        resourceUpdated: (uri) => gen === this.generation && this._onDidChangeCatalog.fire({ updated: uri }),
      });
      client.onerror = (error) => {
        log.debug(`transport error: ${describeError(error)}`);
        // A server may ask for a token only after initialize: the refusal arrives here, and the
        // connection's close that follows must then say "sign-in needed", not "connection closed".
        const signIn = signInFailure(this.name, error);
        if (signIn) this.signInSeen = { gen, error: signIn };
        // Remote transports report a lost stream as an error without closing; check the connection.
        if (this.config.transport.type !== 'stdio' && this._state.kind === 'ready') void this.probe(gen);
      };
      await client.connect(transport, { timeout: this.options.handshakeTimeoutMs ?? handshakeLimitMs(this.config.timeout_secs) });
      if (gen !== this.generation) {
        await client.close().catch(() => {});
        return;
      }
      this.client = client;
      responsesAfterNotifications(transport);
      // Set only now: during the handshake a closed connection is a failed attempt (with its stderr), not a drop.
      client.onclose = () => this.dropped(gen, this.brokenReason() ?? 'connection closed');
      this._tools = await listUpstreamTools(client, this.config);
      if (gen !== this.generation) return;
      this.attempt = 0;
      this.setState({ kind: 'ready', toolCount: this._tools.length });
      if (this.logLevel) void this.setLogLevel(this.logLevel);
      log.info(`ready with ${this._tools.length} tools`);
      this.startPing(gen);
    } catch (error) {
      // Whatever failed, the process (tree) we started must not outlive the attempt.
      const stderr = transport?.stderr ?? '';
      await transport?.close().catch(() => {});
      if (gen !== this.generation) return;
      this.client = undefined;
      this.transport = undefined;
      this.failed(gen, connectFailure(this.config, error, { stderr, broken: this.brokenReason(transport), scrub: (text) => this.scrub(text) }));
    }
  }

  /** Why this connection's stream was given up on (a message over max_message_mb, non-JSON output), if it was. */
  private brokenReason(transport = this.transport): string | undefined {
    const broken = transport?.broken;
    return broken && `it ${broken.message}`;
  }

  private scrub(text: string): string {
    return this.options.redactor ? this.options.redactor.redactForeign(text) : scrubForeign(text);
  }

  private async refreshTools(gen: number): Promise<void> {
    const client = this.client;
    if (gen !== this.generation || !client) return;
    try {
      const tools = await listUpstreamTools(client, this.config);
      if (gen !== this.generation) return;
      this._tools = tools;
      this.setState({ kind: 'ready', toolCount: tools.length });
    } catch (error) {
      this.log.warn(`could not refresh tools: ${describeError(error)}`);
    }
  }

  private startPing(gen: number): void {
    const every = this.options.pingIntervalMs ?? 15_000;
    if (this.config.transport.type === 'stdio' || every <= 0) return;
    this.pingTimer = setInterval(() => void this.probe(gen), every);
    this.pingTimer.unref();
  }

  private async probe(gen: number): Promise<void> {
    const client = this.client;
    if (gen !== this.generation || !client) return;
    try {
      await client.ping({ timeout: 5000 });
    } catch (error) {
      this.dropped(gen, `no answer to ping: ${describeError(error)}`);
    }
  }

  /** Ends the current generation: its timers stop and its client and transport are handed back to close. */
  private detach(): { client: Client | undefined; transport: UpstreamConnection | undefined } {
    this.generation++;
    this.clearTimers();
    const detached = { client: this.client, transport: this.transport };
    this.client = undefined;
    this.transport = undefined;
    return detached;
  }

  /** The connection of generation `gen` went away: close what is left and maybe schedule a retry. */
  private dropped(gen: number, reason: string): void {
    if (gen !== this.generation || this.stopped) return;
    const { client, transport } = this.detach();
    void client?.close().catch(() => {});
    void transport?.close().catch(() => {});
    this.log.warn(`disconnected: ${reason}`);
    const signIn = this.signInSeen?.gen === gen ? this.signInSeen.error : undefined;
    this.failed(this.generation, signIn ?? new GatewayError('gateway.upstream_down', reason, this.name));
  }

  private failed(gen: number, error: GatewayError): void {
    // Retrying cannot sign anyone in: the state waits for the user's sign-in (and a restart).
    const willRetry = this.config.auto_reconnect && !this.stopped && error.code !== 'gateway.upstream_sign_in';
    const delay = willRetry ? backoffDelay(this.attempt++, this.options.backoff ?? DEFAULT_BACKOFF) : 0;
    this.setState({ kind: 'down', error: error.message, code: error.code, nextRetryAt: willRetry ? Date.now() + delay : undefined });
    this.log.warn(`down: ${error.message}${willRetry ? `; retrying in ${delay} ms` : ''}`);
    if (!willRetry) return;
    this.retryTimer = setTimeout(() => {
      if (gen === this.generation && !this.stopped) void this.connect();
    }, delay);
    // Deliberately not unref'd: a pending reconnect is work in progress; stop() clears it.
  }

  private clearTimers(): void {
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.retryTimer = undefined;
    this.pingTimer = undefined;
  }

  private setState(state: UpstreamState): void {
    this._state = state;
    this._onDidChange.fire(this);
  }
}
