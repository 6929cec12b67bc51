/**
 * What `hearth agents` and `hearth ask --agent` share: the agent catalog over the CLI's config,
 * providers, kiln tools, upstream gateway (started only when a session needs it) and the ACP side,
 * with transcripts in `<workspace>/.hearth/transcripts`. `dispose` stops every agent process and
 * upstream server it started, so the command leaves nothing running.
 */
import { join } from 'node:path';
import type { HearthAgentCatalog } from '../core/agents/agentCatalog';
import { createAgentCatalog } from '../core/agents/agentSetup';
import { AcpAgents } from '../core/agents/acp/acpAgents';
import { hearthGatewayStdio } from '../core/agents/acp/connection/gatewayOffer';
import { globalConfigDir, WORKSPACE_DIR_NAME } from '../core/config/locations';
import type { Gateway } from '../core/gateway/gateway';
import { userOAuthStore } from '../core/gateway/oauth/oauthStore';
import { createGateway } from '../core/gateway/gatewaySetup';
import { kilnToolContext } from '../core/kiln/tools/kilnToolContext';
import type { KilnIndex } from '../core/index/kilnIndex';
import { indexSemanticSearch } from '../core/index/semanticSearchFn';
import { LlmRuntime } from '../core/llm/llmRuntime';
import { toDisposable } from '../core/lifecycle/disposable';
import { DisposableStore } from '../core/lifecycle/disposableStore';
// Bundled into dist/cli.js by esbuild (only the version field is kept).
import { version } from '../../package.json';
import type { CommonFlags } from './cliContext';
import { settleWithin } from './gatewayContext';
import { createCliIndex } from './indexContext';
import { createLlmContext, type LlmContext } from './llmContext';
import { terminalReviewer } from './terminalReview';
import type { CliIo } from './cliIo';
import type { ChangeReviewer } from '../core/changes/changeReview';

export interface AgentContext {
  llm: LlmContext;
  catalog: HearthAgentCatalog;
  external: AcpAgents;
  workspaceRoot: string;
  /** The kiln's folder (`kiln_path`, else the workspace). */
  kilnRoot: string;
  /** The kiln index (opened on first use; shared with semantic_search), for auto context. */
  kilnIndex(): KilnIndex;
  dispose(): Promise<void>;
}

/** Why external agents are unavailable in an untrusted folder (`hearth agents` shows it). */
export const UNTRUSTED_AGENTS = 'external agents run only in trusted folders (hearth trust)';

/** How long `hearth ask --agent` waits for upstream servers before starting without the slow ones. */
const GATEWAY_SETTLE_MS = 5000;

/** The script this process runs, when it is a JavaScript bundle an agent can start as `hearth gateway`. */
function cliScript(): string | undefined {
  const script = process.argv[1];
  return script && /\.(c|m)?js$/.test(script) ? script : undefined;
}

export async function createAgentContext(io: CliIo, flags: CommonFlags, options: { startGateway: boolean; reviewer?: ChangeReviewer }): Promise<AgentContext> {
  // Listing agents runs with a note; starting one needs every key a session can use.
  const llm = await createLlmContext(io, flags, undefined, { areas: options.startGateway ? ['llm', 'kiln', 'agents', 'acp', 'mcp'] : [] });
  const { cli, loaded } = llm;
  const { config } = loaded;
  const workspaceRoot = cli.workspaceRoot;
  const runtime = new LlmRuntime(() => loaded, llm.deps);
  // semantic_search: the kiln index, opened on the first search and brought up to date before it.
  let index: KilnIndex | undefined;
  const semanticSearch = indexSemanticSearch(() => (index ??= createCliIndex(cli, io)), (current) => current.update());
  // Kiln edits are reviewed as diffs on the terminal (or --yes); other writing tools ask through the loop.
  const reviewer = options.reviewer ?? terminalReviewer({ stderr: io.stderr, stdin: io.stdin, yes: flags.yes === true, redactor: cli.redactor });
  const kilnContext = kilnToolContext(config, cli.host, workspaceRoot, semanticSearch, reviewer);
  let gateway: Gateway | undefined;
  if (options.startGateway && config.mcp.servers.length > 0) {
    // The same token file as `hearth gateway` and `hearth mcp login`: an OAuth upstream signed in once works for agents too.
    gateway = createGateway(cli.host, io.env, { redactor: cli.redactor, cwd: workspaceRoot, oauthStore: userOAuthStore(io.env) });
    await settleWithin(gateway.applyConfig(config.mcp.servers), GATEWAY_SETTLE_MS);
  }
  const script = cliScript();
  const external = new AcpAgents({
    config: config.acp,
    confirmDestructive: config.cli.confirm_destructive,
    log: llm.log,
    env: io.env,
    secrets: cli.host.secrets,
    redactor: cli.redactor,
    gateway: script ? (cwd) => ({ stdio: hearthGatewayStdio(script, cwd) }) : undefined,
    clientVersion: version,
    // An agent's terminal commands run only in a trusted folder (hearth trust, or --trust for one run).
    trusted: () => cli.trusted,
    // An external agent's file writes are reviewed on the terminal like the kiln tools', and journaled in the kiln.
    edits: () => ({ reviewer, reviewEdits: config.chat.review_edits, journal: kilnContext.journal, kilnRoot: kilnContext.kilnRoot }),
  });
  const catalog = createAgentCatalog({
    config: () => config,
    runtime,
    kilnContext,
    gateway,
    external,
    globalConfigDir: globalConfigDir(io.env),
    workspaceRoot,
    storageDir: join(workspaceRoot, WORKSPACE_DIR_NAME),
    untrustedReason: () => (cli.trusted ? undefined : UNTRUSTED_AGENTS),
    log: llm.log,
    redactor: cli.redactor,
  });
  // Ended in reverse: the agent processes first, then the index, then the upstream servers.
  const owned = new DisposableStore(llm.log);
  if (gateway) owned.add(gateway);
  owned.add(toDisposable(() => index?.dispose()));
  owned.add(external);
  return { llm, catalog, external, workspaceRoot, kilnRoot: kilnContext.kilnRoot, kilnIndex: () => (index ??= createCliIndex(cli, io)), dispose: () => owned.dispose() };
}
