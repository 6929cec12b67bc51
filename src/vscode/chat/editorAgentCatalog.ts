/**
 * The agent catalog inside the editor: internal agents (cards, the built-in `kiln`) on the session's
 * LlmRuntime with the kiln tools, and external ACP agents offered Hearth's gateway (the loopback
 * endpoint when it listens, else `hearth gateway` over stdio from the bundled CLI). The config is
 * read at each call, so a reload (kiln path, `[acp]`, cards) applies to the next conversation.
 */
import { homedir } from 'node:os';
import type * as vscode from 'vscode';
import { AcpAgents } from '../../core/agents/acp/acpAgents';
import { hearthGatewayStdio } from '../../core/agents/acp/connection/gatewayOffer';
import type { HearthAgentCatalog } from '../../core/agents/agentCatalog';
import type { AgentCatalog, AgentDescriptor, AgentSession, AgentStartOptions } from '../../core/agents/agentSession';
import { createAgentCatalog } from '../../core/agents/agentSetup';
import type { GatewayToolSource } from '../../core/agents/agentTools';
import { openChangeJournal } from '../../core/changes/changeJournal';
import type { ChangeReviewer } from '../../core/changes/changeReview';
import type { LoadedConfig } from '../../core/config/load';
import { globalConfigDir } from '../../core/config/locations';
import { kilnToolContext } from '../../core/kiln/tools/kilnToolContext';
import type { Host } from '../../core/host';
import type { SemanticSearchFn } from '../../core/kiln/tools/kilnTool';
import type { LlmRuntime } from '../../core/llm/llmRuntime';
import type { Redactor } from '../../core/logging/redactingLogger';
import { acpProtection } from '../../core/fs/kilnProtection';

/** Shown as the external agents' unavailable reason in Restricted Mode. */
export const UNTRUSTED_AGENTS_EDITOR = 'external agents run only in a trusted workspace (Manage Workspace Trust)';

export interface EditorAgentCatalogDeps {
  config: () => LoadedConfig;
  workspaceRoot: () => string | undefined;
  runtime: LlmRuntime;
  host: Host;
  redactor: Redactor;
  /** The gateway's loopback endpoint, once it listens. */
  gatewayEndpoint: () => { url: string; token: string } | undefined;
  /** dist/cli.js of this extension (agents may spawn `hearth gateway` from it). */
  cliPath: string;
  /** Where transcripts are kept (the extension's workspace storage). */
  storageDir?: string;
  version: string;
  /** semantic_search for the kiln tools, once an index exists. */
  semanticSearch?: () => SemanticSearchFn | undefined;
  /** Shows agent edits as diffs to accept or reject (`[chat].review_edits`). */
  reviewer?: ChangeReviewer;
  /** The running gateway, whose upstream tools internal agents may call. */
  gateway?: () => GatewayToolSource | undefined;
}

export class EditorAgentCatalog implements AgentCatalog, vscode.Disposable {
  /** External agents per `[acp]` table seen; older ones are kept until dispose so their sessions can finish. */
  private readonly externals: AcpAgents[] = [];
  private externalFor: { acp: unknown; agents: AcpAgents } | undefined;
  private readonly onExit = () => this.externals.forEach((e) => e.killNow());

  constructor(private readonly deps: EditorAgentCatalogDeps) {
    // An extension host that dies without deactivating must not leave agent processes behind.
    process.on('exit', this.onExit);
  }

  list(): Promise<AgentDescriptor[]> {
    return this.catalog().list();
  }

  defaultAgent(): Promise<string> {
    return this.catalog().defaultAgent();
  }

  trustFallback(): Promise<string | undefined> {
    return this.catalog().trustFallback();
  }

  start(name: string, options: AgentStartOptions): Promise<AgentSession> {
    return this.catalog().start(name, options);
  }

  private catalog(): HearthAgentCatalog {
    const { config } = this.deps.config();
    const workspaceRoot = this.deps.workspaceRoot() ?? homedir();
    const gateway = this.deps.gateway?.();
    return createAgentCatalog({
      config: () => this.deps.config().config,
      runtime: this.deps.runtime,
      kilnContext: kilnToolContext(config, this.deps.host, workspaceRoot, this.deps.semanticSearch?.(), this.deps.reviewer),
      external: this.external(),
      ...(gateway ? { gateway } : {}),
      globalConfigDir: globalConfigDir(process.env),
      workspaceRoot,
      ...(this.deps.storageDir ? { storageDir: this.deps.storageDir } : {}),
      // Restricted Mode: no external agent starts, discovered ones included (DESIGN.md decision 14).
      untrustedReason: () => (this.deps.config().trusted ? undefined : UNTRUSTED_AGENTS_EDITOR),
      log: this.deps.host.log,
      redactor: this.deps.redactor,
    });
  }

  private external(): AcpAgents {
    const { config } = this.deps.config();
    if (this.externalFor && this.externalFor.acp === config.acp) return this.externalFor.agents;
    const agents = new AcpAgents({
      config: config.acp,
      confirmDestructive: config.cli.confirm_destructive,
      protection: (cwd) => acpProtection(config, cwd),
      log: this.deps.host.log,
      env: process.env,
      secrets: this.deps.host.secrets,
      redactor: this.deps.redactor,
      gateway: (cwd) => {
        const http = this.deps.gatewayEndpoint();
        return { ...(http ? { http } : {}), stdio: hearthGatewayStdio(this.deps.cliPath, cwd) };
      },
      clientVersion: this.deps.version,
      // An agent's terminal commands run only while the folder is trusted (checked at each command).
      trusted: () => this.deps.config().trusted,
      // File writes of external agents open as diffs like the kiln tools' edits, journaled in the kiln.
      edits: (cwd) => {
        const current = this.deps.config().config;
        const kilnRoot = current.kiln_path ?? cwd;
        const journal = openChangeJournal(kilnRoot, current.changes, this.deps.host.log).journal;
        return { reviewer: this.deps.reviewer, reviewEdits: current.chat.review_edits, journal, kilnRoot };
      },
    });
    this.externals.push(agents);
    this.externalFor = { acp: config.acp, agents };
    return agents;
  }

  /** Ends every agent process tree and waits for them; deactivate() awaits it. */
  async dispose(): Promise<void> {
    process.off('exit', this.onExit);
    await Promise.allSettled(this.externals.map((agents) => agents.dispose()));
  }
}
