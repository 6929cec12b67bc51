/**
 * The MCP gateway inside the extension host: upstreams from `[mcp]` (applied live: only changed
 * upstreams restart), kiln tools, and a streamable HTTP endpoint on 127.0.0.1 with a random bearer
 * token, offered to VS Code's own MCP support where the API exists and to ACP sessions via
 * `endpoint`. A status bar item shows gateway health ("3/4").
 */
import * as vscode from 'vscode';
import type { ChangeReviewer } from '../../core/changes/changeReview';
import type { LoadedConfig } from '../../core/config/load';
import { describeError } from '../../core/errors';
import type { Host, Logger } from '../../core/host';
import type { Redactor } from '../../core/logging/redactingLogger';
import type { Gateway } from '../../core/gateway/gateway';
import { serveGatewayHttp, type GatewayHttpHandle } from '../../core/gateway/gatewayHttp';
import { createGateway } from '../../core/gateway/gatewaySetup';
import type { OAuthUpstream } from '../../core/gateway/oauth/oauthProvider';
import { secretOAuthStore, type OAuthStore } from '../../core/gateway/oauth/oauthStore';
import { kilnToolContext } from '../../core/kiln/tools/kilnToolContext';
import type { KilnTool, SemanticSearchFn } from '../../core/kiln/tools/kilnTool';
import { createKilnTools } from '../../core/kiln/tools/kilnTools';
import { gatewayStatusPresentation, SHOW_TOOL_SERVERS_COMMAND } from './gatewayStatus';
import { hasMcpServerDefinitionApi } from '../api/editorContributions';
import { notifySignInNeeded } from './gatewaySignIn';
import { editorGatewayAnswers } from './gatewayAnswers';
import { hostPeer } from '../../core/gateway/hostAnswers/hostPeer';
import type { LlmRuntime } from '../../core/llm/llmRuntime';

export const GATEWAY_PROVIDER_ID = 'hearth.gateway';

/** The 1.101+ MCP API, absent from the 1.100 types this extension builds against: feature-detected. */
interface McpApi {
  register: (id: string, provider: unknown) => vscode.Disposable;
  HttpDefinition: new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string) => unknown;
}

function mcpApi(): McpApi | undefined {
  if (!hasMcpServerDefinitionApi()) return undefined;
  const lm = vscode.lm as unknown as { registerMcpServerDefinitionProvider: McpApi['register'] };
  const HttpDefinition = (vscode as unknown as { McpHttpServerDefinition: McpApi['HttpDefinition'] }).McpHttpServerDefinition;
  return { register: lm.registerMcpServerDefinitionProvider.bind(lm), HttpDefinition };
}

export class GatewayController implements vscode.Disposable {
  readonly gateway: Gateway;
  private http: GatewayHttpHandle | undefined;
  private starting: Promise<GatewayHttpHandle | undefined> | undefined;
  private kilnTools: readonly KilnTool[] = [];
  private readonly statusItem = vscode.window.createStatusBarItem('hearth.gateway', vscode.StatusBarAlignment.Right, 99);
  private readonly _onDidChangeDefinitions = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private semanticSearch: SemanticSearchFn | undefined;
  private lastLoaded: { loaded: LoadedConfig; workspaceRoot: string | undefined } | undefined;
  private readonly log: Logger;
  /** OAuth tokens of http/sse upstreams: in the editor's secret storage, never in a file or setting. */
  readonly oauthStore: OAuthStore;
  /** A reload can still arrive while the extension deactivates (its code loads after activation): ignored then. */
  private disposed = false;

  constructor(
    private readonly host: Host,
    readonly redactor: Redactor,
    private readonly version: string,
    /** Edits by the gateway's MCP clients are staged for review in the editor like any agent's. */
    private readonly reviewer?: ChangeReviewer,
    /** The chat models: an upstream's sampling request, once approved, runs through the active one. */
    llm?: () => LlmRuntime | undefined,
  ) {
    this.log = host.log.child('gateway');
    this.oauthStore = secretOAuthStore(host.secrets);
    this.gateway = createGateway(host, process.env, { redactor, oauthStore: this.oauthStore });
    this.statusItem.name = 'Hearth tool servers';
    this.statusItem.command = SHOW_TOOL_SERVERS_COMMAND;
    this.disposables.push(this.statusItem, this._onDidChangeDefinitions);
    const subscription = this.gateway.onDidChange(() => this.updateStatus());
    // Upstreams lead their own process groups, so an extension host that dies without deactivating
    // would not take them along: kill them on the way out whatever happens.
    const onExit = () => this.gateway.killNow();
    process.on('exit', onExit);
    this.disposables.push({ dispose: () => subscription.dispose() }, { dispose: () => process.off('exit', onExit) });
    this.registerWithVsCode();
    this.disposables.push(notifySignInNeeded(this));
    // Attached before any session connects: a session calling the upstream is asked first; else
    // (Hearth's chat or agents calling) the editor asks its user itself.
    if (llm) this.disposables.push(this.gateway.clients.attach(hostPeer(editorGatewayAnswers(llm))));
  }

  /** Where ACP sessions and other local clients reach the gateway; undefined until it listens. */
  get endpoint(): { url: string; token: string } | undefined {
    return this.http ? { url: this.http.url, token: this.http.token } : undefined;
  }

  /** Lets the index (when built) back semantic_search; tools are rebuilt with it. */
  setSemanticSearch(search: SemanticSearchFn | undefined): void {
    this.semanticSearch = search;
    if (this.lastLoaded) this.rebuildKilnTools(this.lastLoaded.loaded, this.lastLoaded.workspaceRoot);
  }

  /** Applies a (re)loaded config: kiln tools rebuilt, upstreams reconciled, endpoint started once. */
  async apply(loaded: LoadedConfig, workspaceRoot: string | undefined): Promise<void> {
    if (this.disposed) return;
    this.lastLoaded = { loaded, workspaceRoot };
    this.rebuildKilnTools(loaded, workspaceRoot);
    const endpoint = this.ensureServing();
    this.gateway.workingDirectory = workspaceRoot;
    try {
      const result = await this.gateway.applyConfig(loaded.config.mcp.servers);
      const changed = [...result.started, ...result.restarted, ...result.stopped];
      if (changed.length > 0) this.log.info(`applied [mcp]: started ${fmt(result.started)}, restarted ${fmt(result.restarted)}, stopped ${fmt(result.stopped)}`);
    } catch (error) {
      this.log.error(`applying [mcp] failed: ${describeError(error)}`);
    }
    await endpoint;
    this.updateStatus();
  }

  /** The http/sse entry `name` as OAuth sign-in needs it; undefined for a stdio or unknown one. */
  oauthUpstream(name: string): OAuthUpstream | undefined {
    const server = this.lastLoaded?.loaded.config.mcp.servers.find((entry) => entry.name === name);
    if (!server || server.transport.type === 'stdio') return undefined;
    return { name, url: server.transport.url, clientId: server.transport.oauth_client_id, scopes: server.transport.oauth_scopes };
  }

  async restart(name: string): Promise<void> {
    await this.gateway.restart(name);
  }

  private rebuildKilnTools(loaded: LoadedConfig, workspaceRoot: string | undefined): void {
    const root = loaded.config.kiln_path ?? workspaceRoot;
    this.kilnTools = root ? createKilnTools(kilnToolContext(loaded.config, this.host, root, this.semanticSearch, this.reviewer)) : [];
  }

  private ensureServing(): Promise<GatewayHttpHandle | undefined> {
    this.starting ??= serveGatewayHttp({ gateway: this.gateway, kilnTools: () => this.kilnTools, log: this.host.log, port: 0, version: this.version }).then(
      (handle) => {
        this.http = handle;
        this.log.info(`serving on ${handle.url}`);
        this._onDidChangeDefinitions.fire();
        return handle;
      },
      (error) => {
        this.log.error(`could not listen on 127.0.0.1: ${describeError(error)}`);
        return undefined;
      },
    );
    return this.starting;
  }

  private registerWithVsCode(): void {
    const api = mcpApi();
    if (!api) {
      this.log.debug('this VS Code has no MCP server definition API; the gateway is not offered to its agent');
      return;
    }
    try {
      this.disposables.push(
        api.register(GATEWAY_PROVIDER_ID, {
          onDidChangeMcpServerDefinitions: this._onDidChangeDefinitions.event,
          provideMcpServerDefinitions: () => {
            const endpoint = this.endpoint;
            if (!endpoint) return [];
            return [new api.HttpDefinition('Hearth', vscode.Uri.parse(endpoint.url), { Authorization: `Bearer ${endpoint.token}` }, this.version)];
          },
        }),
      );
    } catch (error) {
      this.log.warn(`could not register with VS Code's MCP support: ${describeError(error)}`);
    }
  }

  private updateStatus(): void {
    const view = gatewayStatusPresentation(this.gateway.statuses());
    if (!view) {
      this.statusItem.hide();
      return;
    }
    this.statusItem.text = view.text;
    // Upstream errors are scrubbed where they are made; the tooltip is user-facing, so once more.
    this.statusItem.tooltip = this.redactor.redact(view.tooltip);
    this.statusItem.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.statusItem.show();
  }

  /** Ends every upstream process tree and closes the endpoint; deactivate() awaits it. */
  async dispose(): Promise<void> {
    // Synchronous part first: the extension host may exit before anything async completes, so every
    // tree gets SIGTERM now; the gateway's dispose then escalates to SIGKILL and the exit hook is the last resort.
    this.disposed = true;
    this.gateway.killNow('SIGTERM');
    const subscriptions = this.disposables.splice(0);
    // The endpoint may still be starting (an apply just before deactivation): it is closed once it listens.
    await Promise.allSettled([this.starting?.then((handle) => handle?.dispose()), this.gateway.dispose()]);
    for (const disposable of subscriptions) disposable.dispose();
  }
}

function fmt(names: string[]): string {
  return names.length ? names.join(', ') : 'none';
}
