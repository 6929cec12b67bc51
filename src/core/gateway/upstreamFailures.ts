import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpServerConfig } from '../config/schema';
import { describeError } from '../errors';
import { GatewayError } from './gatewayErrors';
import type { UpstreamState } from './upstreamTypes';

/** The state an OAuth upstream waits in until someone signs in: it names the command that does. */
export function signInNeeded(name: string, cause?: unknown): GatewayError {
  return new GatewayError('gateway.upstream_sign_in', `Upstream "${name}" needs sign-in: run \`hearth mcp login ${name}\` (or "Sign in" in the editor)`, name, { cause });
}

/**
 * The sign-in a failure asks for: the provider's own error somewhere in its cause chain (the SDK
 * wraps what the provider throws), or the SDK's UnauthorizedError (a refused token, no refresh).
 */
export function signInFailure(name: string, error: unknown): GatewayError | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof GatewayError && current.code === 'gateway.upstream_sign_in') return current;
  }
  return error instanceof UnauthorizedError ? signInNeeded(name, error) : undefined;
}

/**
 * Why a connect attempt failed, in the user's terms: a command that is missing or not executable,
 * a sign-in, a stream given up on (`broken`), else the error with the last line of stderr.
 * `scrub` removes secrets from the upstream's own text.
 */
export function connectFailure(config: McpServerConfig, error: unknown, detail: { stderr: string; broken?: string; scrub: (text: string) => string }): GatewayError {
  const { name, transport } = config;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (transport.type === 'stdio' && (code === 'ENOENT' || code === 'EACCES')) {
    const what = code === 'ENOENT' ? 'was not found (check the command and PATH)' : 'is not executable';
    return new GatewayError('gateway.upstream_spawn', `Upstream "${name}": command "${transport.command}" ${what}`, name, { cause: error });
  }
  const signIn = signInFailure(name, error);
  if (signIn) return signIn;
  if (detail.broken) return new GatewayError('gateway.upstream_handshake', `Upstream "${name}" failed to connect: ${detail.broken}`, name, { cause: error });
  const lastLine = detail.stderr.split('\n').filter(Boolean).pop();
  const stderr = lastLine ? ` (stderr: ${lastLine.slice(0, 300)})` : '';
  return new GatewayError('gateway.upstream_handshake', `Upstream "${name}" failed to connect: ${detail.scrub(describeError(error) + stderr)}`, name, { cause: error });
}

/** A call refused because the upstream is not ready: what state it is in and whether it will come back. */
export function unavailable(config: McpServerConfig, exposed: string, state: UpstreamState): GatewayError {
  let why = `is ${state.kind}`;
  if (state.kind === 'down') {
    const retry =
      state.nextRetryAt !== undefined
        ? `next retry in ${Math.max(0, Math.ceil((state.nextRetryAt - Date.now()) / 1000))} s`
        : config.auto_reconnect
          ? 'not retrying'
          : 'auto_reconnect is off; restart the tool server to try again';
    why = `is down (${state.error}); ${retry}`;
  }
  return new GatewayError('gateway.upstream_down', `Tool "${exposed}" is unavailable: upstream "${config.name}" ${why}`, config.name);
}
