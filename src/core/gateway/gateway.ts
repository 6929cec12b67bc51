import type { CallToolResult, LoggingLevel, Progress } from '@modelcontextprotocol/sdk/types.js';
import { ClientRelay } from './clientRelay';
import type { McpServerConfig } from '../config/schema';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter } from '../lifecycle/emitter';
import { GatewayError } from './gatewayErrors';
import { Upstream, type CatalogChange, type UpstreamOptions, type UpstreamState, type UpstreamTool } from './upstream';

/** What every upstream is started with (the environment is the process's in production). */
export type GatewayOptions = UpstreamOptions;

/** A tool of the aggregated surface, with the upstream it belongs to and that upstream's state. */
export interface GatewayTool extends UpstreamTool {
  upstream: string;
  state: UpstreamState['kind'];
}

/** One upstream as hosts display it. */
export interface UpstreamStatus {
  name: string;
  prefix: string;
  transport: McpServerConfig['transport']['type'];
  state: UpstreamState;
  tools: string[];
}

/** What applying a new `[mcp]` configuration did, by upstream name. */
export interface ApplyResult {
  started: string[];
  stopped: string[];
  restarted: string[];
  unchanged: string[];
}

/**
 * The aggregate of every configured upstream: one tool surface with prefixed names, routing calls
 * to the right upstream. Applying a new configuration restarts only the upstreams whose entry
 * changed, so editing one server does not interrupt the others.
 */
export class Gateway {
  private readonly upstreams = new Map<string, { upstream: Upstream; key: string; listener: Disposable }>();
  private routes = new Map<string, { upstream: Upstream; originalName: string }>();
  private readonly _onDidChange = new Emitter<void>();
  /** Fires when any upstream's state or tools change. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidChangeTools = new Emitter<void>();
  /** Fires when the set of served tools changes (an MCP server turns this into tools/list_changed). */
  readonly onDidChangeTools = this._onDidChangeTools.event;
  private servedSignature = '';
  private readySignature = '';
  /** Applies and stops run one at a time: two quick config reloads must not race on the same upstream. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Set when dispose starts: a reload queued behind it (the editor closing) must not start servers again. */
  private disposed = false;

  private readonly _onDidChangeCatalog = new Emitter<CatalogChange>();
  /** Fires when an upstream's resources or prompts changed, or an upstream came or went (list_changed), or a subscribed resource changed. */
  readonly onDidChangeCatalog = this._onDidChangeCatalog.event;
  /** The gateway's client sessions, as upstreams reach them (elicitation, sampling, log messages). */
  readonly clients = new ClientRelay();
  /** How many gateway sessions subscribe to each upstream resource: the upstream is unsubscribed when the last one leaves. */
  readonly resourceSubscribers = new Map<string, number>();
  private logLevel: LoggingLevel | undefined;

  private readonly options: GatewayOptions;

  constructor(options: GatewayOptions) {
    this.options = { ...options, relay: options.relay ?? this.clients };
  }

  /**
   * Where stdio servers start (relative commands and paths in args resolve from it): the workspace
   * root. Applies to upstreams started from now on; the editor sets it before each config apply.
   */
  set workingDirectory(dir: string | undefined) {
    this.options.cwd = dir;
  }

  /** Starts the given servers (or reconciles with the running ones); resolves when each first attempt settled. */
  async applyConfig(servers: readonly McpServerConfig[]): Promise<ApplyResult> {
    const { result, firstAttempts } = await this.serialized(() => this.reconcile(servers));
    // Waited outside the queue: a slow handshake must not hold up the next reload or stop().
    await firstAttempts;
    return result;
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  private async reconcile(servers: readonly McpServerConfig[]): Promise<{ result: ApplyResult; firstAttempts: Promise<unknown> }> {
    if (this.disposed) throw new GatewayError('gateway.stopped', 'The gateway has stopped; the [mcp] servers were not started.');
    const result: ApplyResult = { started: [], stopped: [], restarted: [], unchanged: [] };
    const wanted = new Map(servers.map((server) => [server.name, server]));
    const work: Promise<void>[] = [];
    for (const [name, entry] of this.upstreams) {
      if (wanted.has(name)) continue;
      result.stopped.push(name);
      work.push(this.remove(name, entry.upstream));
    }
    // Stop first so a prefix moving from one server to another never overlaps.
    await Promise.all(work);
    work.length = 0;
    for (const server of servers) {
      const key = JSON.stringify(server);
      const existing = this.upstreams.get(server.name);
      if (existing && existing.key === key) {
        result.unchanged.push(server.name);
        continue;
      }
      if (existing) {
        result.restarted.push(server.name);
        await this.remove(server.name, existing.upstream);
      } else {
        result.started.push(server.name);
      }
      const upstream = new Upstream(server, this.options);
      if (this.logLevel) void upstream.setLogLevel(this.logLevel);
      const onChange = upstream.onDidChange(() => this.changed());
      const onCatalog = upstream.onDidChangeCatalog((what) => this._onDidChangeCatalog.fire(what));
      const listener = { dispose: () => (onChange.dispose(), onCatalog.dispose()) };
      this.upstreams.set(server.name, { upstream, key, listener });
      work.push(upstream.start());
    }
    // Keep config order for a stable tool list.
    const ordered = [...this.upstreams.entries()].sort(([a], [b]) => servers.findIndex((s) => s.name === a) - servers.findIndex((s) => s.name === b));
    this.upstreams.clear();
    for (const [name, entry] of ordered) this.upstreams.set(name, entry);
    this.changed();
    return { result, firstAttempts: Promise.all(work) };
  }

  private async remove(name: string, upstream: Upstream): Promise<void> {
    const entry = this.upstreams.get(name);
    this.upstreams.delete(name);
    await upstream.stop();
    entry?.listener.dispose();
    upstream.dispose();
    this.changed();
  }

  /** Stops every upstream, ends every process tree the gateway started, then drops its listeners. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.serialized(async () => {
      await Promise.all([...this.upstreams.entries()].map(([name, entry]) => this.remove(name, entry.upstream)));
    });
    this._onDidChange.dispose();
    this._onDidChangeTools.dispose();
    this._onDidChangeCatalog.dispose();
  }

  /** logging/setLevel from a client: forwarded to every upstream that logs (and to those started later). */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    await Promise.all([...this.upstreams.values()].map(({ upstream }) => upstream.setLogLevel(level)));
  }

  /** The upstreams in config order (resources and prompts are aggregated from them). */
  /** A gateway client's roots changed: each connected upstream is told (roots/list_changed). */
  rootsChanged(): void {
    for (const upstream of this.upstreamList) void upstream.connectedClient?.sendRootsListChanged().catch(() => {});
  }

  get upstreamList(): Upstream[] {
    return [...this.upstreams.values()].map(({ upstream }) => upstream);
  }

  /** For `process.on('exit')` and editor shutdown: signals every stdio server tree synchronously (SIGKILL by default). */
  killNow(signal?: NodeJS.Signals): void {
    for (const { upstream } of this.upstreams.values()) upstream.killNow(signal);
  }

  async restart(name: string): Promise<void> {
    const entry = this.upstreams.get(name);
    if (!entry) throw new GatewayError('gateway.unknown_upstream', `No tool server named "${name}" is configured`, name);
    await entry.upstream.restart();
  }

  get upstreamNames(): string[] {
    return [...this.upstreams.keys()];
  }

  statuses(): UpstreamStatus[] {
    return [...this.upstreams.values()].map(({ upstream }) => ({
      name: upstream.name,
      prefix: upstream.config.prefix,
      transport: upstream.config.transport.type,
      state: upstream.state,
      tools: upstream.tools.map((tool) => tool.exposedName),
    }));
  }

  /** How many upstreams are ready, out of how many configured (the status bar's "3/4"). */
  health(): { ready: number; total: number } {
    const all = [...this.upstreams.values()];
    return { ready: all.filter(({ upstream }) => upstream.state.kind === 'ready').length, total: all.length };
  }

  /** Every known tool, including those of upstreams that are down (with their state), for listings. */
  allTools(): GatewayTool[] {
    return [...this.upstreams.values()].flatMap(({ upstream }) =>
      upstream.tools.map((tool) => ({ ...tool, upstream: upstream.name, state: upstream.state.kind })),
    );
  }

  /** The tools served right now: those of ready upstreams. */
  tools(): GatewayTool[] {
    return this.allTools().filter((tool) => tool.state === 'ready');
  }

  /** Whether `exposedName` belongs to an upstream (ready or not). */
  hasTool(exposedName: string): boolean {
    return this.routes.has(exposedName);
  }

  /** Calls a tool by its exposed name. Throws GatewayError (unknown-tool, upstream-down, upstream-timeout, upstream-call). */
  async callTool(exposedName: string, args: Record<string, unknown> | undefined, signal?: AbortSignal, onprogress?: (progress: Progress) => void): Promise<CallToolResult> {
    const route = this.routes.get(exposedName);
    if (!route) throw new GatewayError('gateway.unknown_tool', `No tool named "${exposedName}" is served by the gateway`);
    return route.upstream.callTool(route.originalName, args, signal, onprogress);
  }

  /** The upstream a served tool belongs to (a session knows whose questions to expect). */
  upstreamOfTool(exposedName: string): string | undefined {
    return this.routes.get(exposedName)?.upstream.name;
  }

  private changed(): void {
    const routes = new Map<string, { upstream: Upstream; originalName: string }>();
    for (const { upstream } of this.upstreams.values()) {
      for (const tool of upstream.tools) {
        if (routes.has(tool.exposedName)) {
          this.options.log.child('mcp').warn(`tool "${tool.exposedName}" of "${upstream.name}" hides one of another server with the same exposed name`);
          continue;
        }
        routes.set(tool.exposedName, { upstream, originalName: tool.originalName });
      }
    }
    this.routes = routes;
    this._onDidChange.fire();
    // An upstream becoming ready or going away changes the resources and prompts served.
    const ready = [...this.upstreams.values()].filter(({ upstream }) => upstream.state.kind === 'ready').map(({ upstream }) => upstream.name).join('\n');
    if (ready !== this.readySignature) {
      this.readySignature = ready;
      this._onDidChangeCatalog.fire('resources');
      this._onDidChangeCatalog.fire('prompts');
    }
    const signature = JSON.stringify(this.tools().map((tool) => [tool.exposedName, tool.definition.description, tool.definition.inputSchema]));
    if (signature !== this.servedSignature) {
      this.servedSignature = signature;
      this._onDidChangeTools.fire();
    }
  }
}
