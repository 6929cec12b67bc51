import type { HearthConfig } from '../config/schema';
import { resolveSecret } from '../config/resolveSecret';
import type { Host } from '../host';
import type { Redactor } from '../logging/redactingLogger';
import type { KilnToolContext, SemanticSearchFn } from '../kiln/tools/kilnTool';
import { Gateway, type GatewayOptions } from './gateway';

/**
 * Wires a Gateway and the kiln tool context from the effective config and a host. Shared by the
 * CLI (`hearth gateway`, `hearth tools`) and the editor so both build the same thing.
 */
export function createGateway(host: Pick<Host, 'log' | 'secrets'>, env: NodeJS.ProcessEnv, options: Partial<GatewayOptions> & { redactor?: Redactor } = {}): Gateway {
  const { redactor, ...rest } = options;
  return new Gateway({
    log: host.log,
    env,
    resolveSecret: (value) => resolveSecret(value, { env, secrets: host.secrets, redactor }),
    ...rest,
  });
}

export function kilnToolContext(config: HearthConfig, host: Pick<Host, 'log' | 'confirm'>, kilnRoot: string, semanticSearch?: SemanticSearchFn): KilnToolContext {
  return {
    kilnRoot: config.kiln_path ?? kilnRoot,
    host,
    confirmDestructive: config.cli.confirm_destructive,
    semanticSearch,
    exclude: config.processing.exclude,
    maxFileSizeKb: config.processing.max_file_size_kb,
  };
}
