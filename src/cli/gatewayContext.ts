import { resolve } from 'node:path';
import { loadConfig, type LoadedConfig } from '../core/config/load';
import type { Host, Logger, LogLevel } from '../core/host';
import { Redactor, effectiveLogLevel, isLevelEnabled, redactingLogger } from '../core/logging/redactingLogger';
import { Gateway } from '../core/gateway/gateway';
import { createGateway, kilnToolContext } from '../core/gateway/gatewaySetup';
import { createKilnTools } from '../core/kiln/tools/kilnTools';
import type { KilnTool } from '../core/kiln/tools/kilnTool';
import type { CliIo } from './main';

export interface GatewayContext {
  loaded: LoadedConfig;
  host: Host;
  gateway: Gateway;
  kilnTools: KilnTool[];
}

/**
 * Everything `hearth gateway` and `hearth tools` share: config, a host whose log goes to stderr
 * (stdout may be the MCP channel), the gateway and the kiln tools. Nothing can be confirmed on the
 * terminal here (stdin may be the protocol), so destructive kiln tools are refused while
 * `[cli].confirm_destructive` is on (unless the `confirmer` can ask the MCP client), with a message
 * saying how to allow them.
 */
/** Asks whoever is on the other end (an MCP client, via elicitation); undefined when nobody can be asked. */
export type Confirmer = (message: string, detail?: string) => Promise<boolean | undefined>;

export async function createGatewayContext(io: CliIo, workspace: string | undefined, confirmer?: Confirmer): Promise<GatewayContext> {
  const root = resolve(io.cwd, workspace ?? '.');
  const loaded = await loadConfig({ workspaceRoot: root, env: io.env });
  const redactor = new Redactor();
  const level = effectiveLogLevel(loaded.config);
  const log = redactingLogger(stderrLogger(io.stderr, level), redactor);
  for (const problem of loaded.problems) {
    const where = problem.file ? `${problem.file}${problem.line ? `:${problem.line}` : ''}: ` : '';
    log[problem.severity === 'error' ? 'error' : 'warn'](`config: ${where}${problem.keyPath}: ${problem.message}`);
  }
  const host: Host = {
    log,
    withProgress: (_options, work) => work({ report() {} }, new AbortController().signal),
    async confirm(message, detail) {
      const answer = await confirmer?.(message, detail);
      if (answer !== undefined) return answer;
      log.warn(`refused (cannot ask for confirmation here): ${message} Set [cli].confirm_destructive = false to allow it.`);
      return false;
    },
    secrets: { get: async (name) => io.env[name] },
  };
  const gateway = createGateway(host, io.env, { redactor, cwd: root });
  const kilnTools = createKilnTools(kilnToolContext(loaded.config, host, root));
  return { loaded, host, gateway, kilnTools };
}

function stderrLogger(stream: NodeJS.WritableStream, threshold: LogLevel): Logger {
  const at = (level: LogLevel) => (message: string) => {
    if (isLevelEnabled(level, threshold)) stream.write(`[${level}] ${message}\n`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace') };
}

/** Waits for the first connection attempts, but not longer than `ms`: a slow upstream joins later. */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((done) => (timer = setTimeout(done, ms)))]);
  clearTimeout(timer);
}
