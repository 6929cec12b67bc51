import { resolveSecret } from '../config/resolveSecret';
import type { Host } from '../host';
import { Gateway, type GatewayOptions } from './gateway';

/**
 * Wires a Gateway from a host. Shared by the CLI (`hearth gateway`, `hearth tools`) and the editor
 * so both build the same thing; the kiln tools' context is built by kiln/tools/kilnToolContext.ts.
 */
export function createGateway(host: Pick<Host, 'log' | 'secrets'>, env: NodeJS.ProcessEnv, options: Partial<GatewayOptions> = {}): Gateway {
  const { redactor } = options;
  return new Gateway({
    log: host.log,
    env,
    resolveSecret: (value) => resolveSecret(value, { env, secrets: host.secrets, redactor }),
    ...options,
  });
}
