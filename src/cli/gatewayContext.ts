import type { LoadedConfig } from '../core/config/load';
import { protectedQuestion } from '../core/fs/writeGate';
import type { Host } from '../core/host';
import type { Gateway } from '../core/gateway/gateway';
import { createGateway } from '../core/gateway/gatewaySetup';
import { userOAuthStore } from '../core/gateway/oauth/oauthStore';
import { kilnToolContext } from '../core/kiln/tools/kilnToolContext';
import { createKilnTools } from '../core/kiln/tools/kilnTools';
import type { KilnTool } from '../core/kiln/tools/kilnTool';
import type { KilnIndex } from '../core/index/kilnIndex';
import { indexSemanticSearch } from '../core/index/semanticSearchFn';
import { createCliContext, type CliContext, type CommonFlags } from './cliContext';
import { createCliIndex } from './indexContext';
import type { CliIo } from './cliIo';

export interface GatewayContext {
  cli: CliContext;
  loaded: LoadedConfig;
  host: Host;
  gateway: Gateway;
  kilnTools: KilnTool[];
}

/**
 * Everything `hearth gateway` and `hearth tools` share: config, the CLI host (its log on stderr:
 * stdout may be the MCP channel), the gateway and the kiln tools. Nothing can be confirmed on the
 * terminal here (stdin may be the protocol), so destructive kiln tools ask the MCP client when the
 * `confirmer` can, and are otherwise refused while `[cli].confirm_destructive` is on and `--yes`
 * was not given, with a message saying how to allow them.
 */
/** Asks whoever is on the other end (an MCP client, via elicitation); undefined when nobody can be asked. */
export type Confirmer = (message: string, detail?: string) => Promise<boolean | undefined>;

/** `mayAskTrust`: `hearth tools` may offer to trust the folder on a terminal; `hearth gateway` never asks (stdin may be the MCP channel). */
export async function createGatewayContext(io: CliIo, flags: CommonFlags, confirmer?: Confirmer, mayAskTrust = false): Promise<GatewayContext> {
  const cli = await createCliContext(io, flags, { interactive: false, trustNeeds: { areas: ['mcp', 'kiln'], mayAsk: mayAskTrust } });
  const { loaded, workspaceRoot, redactor } = cli;
  cli.reportConfigProblems();
  const log = cli.host.log;
  const host: Host = {
    log,
    withProgress: (options, work) => cli.host.withProgress(options, work),
    async confirm(message, detail) {
      if (!loaded.config.cli.confirm_destructive || flags.yes) return true;
      const answer = await confirmer?.(message, detail);
      if (answer !== undefined) return answer;
      log.warn(`refused (cannot ask for confirmation here): ${message} Start the gateway with --yes or set [cli].confirm_destructive = false to allow it.`);
      return false;
    },
    // Protected paths (DESIGN.md decision 15): the MCP client's user is asked every time, --yes
    // notwithstanding; without elicitation nobody can be asked, and the write is refused.
    async confirmProtected(request) {
      const { message, detail } = protectedQuestion(request);
      const answer = await confirmer?.(message, detail);
      if (answer === undefined) log.warn(`refused a write to the protected path "${request.path}": ${request.reason}; nobody can be asked here (no elicitation), and --yes does not cover protected paths.`);
      return answer;
    },
    secrets: cli.host.secrets,
  };
  const gateway = createGateway(host, io.env, { redactor, cwd: workspaceRoot, oauthStore: userOAuthStore(io.env) });
  // semantic_search: the kiln index, opened on the first search and brought up to date before each
  // (no watcher runs here; an unchanged kiln costs a scan and no embedding).
  let index: KilnIndex | undefined;
  const semanticSearch = indexSemanticSearch(() => (index ??= createCliIndex(cli, io)), (current) => current.update());
  const kilnTools = createKilnTools(kilnToolContext(loaded.config, host, workspaceRoot, semanticSearch));
  return { cli, loaded, host, gateway, kilnTools };
}

/** Waits for the first connection attempts, but not longer than `ms`: a slow upstream joins later. */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((done) => (timer = setTimeout(done, ms)))]);
  clearTimeout(timer);
}
