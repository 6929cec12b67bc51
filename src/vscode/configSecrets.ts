/**
 * Registers every secret the configuration can reach with the Redactor, as soon as it is loaded,
 * so no log line ever shows one, even from code that logs a value before resolving it itself.
 * Free of the `vscode` import: the secret store is passed in, which keeps it unit-testable.
 */
import { resolveSecret } from '../core/config/resolveSecret';
import { HOSTED_OPENAI_COMPATIBLE_TYPES, PROVIDER_ENV } from '../core/config/providerTypes';
import type { HearthConfig } from '../core/config/schema';
import type { SecretStore } from '../core/host';
import type { Redactor } from '../core/logging/redactingLogger';

/** `{env:X}` / `{secret:X}` anywhere in a value, e.g. `auth_header = "Bearer {env:TOKEN}"`. */
const EMBEDDED_REF = /\{(env|secret):([^}]+)\}/g;
/** Env-table keys whose literal values are credentials by their name. */
const SECRET_NAME = /key|token|secret|password|passwd|auth|credential/i;

export interface SecretContext {
  env: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  redactor: Redactor;
}

/** Resolves and registers every secret of `config` (and the well-known key variables). */
export async function registerConfigSecrets(config: HearthConfig, ctx: SecretContext): Promise<void> {
  const whole: string[] = [];
  const embedded: string[] = [];
  for (const provider of Object.values(config.llm.providers)) if (provider.api_key) whole.push(provider.api_key);
  for (const server of config.mcp.servers) {
    const transport = server.transport;
    if (transport.type === 'stdio') collectEnv(transport.env, whole, embedded);
    else if (transport.auth_header) {
      whole.push(transport.auth_header);
      embedded.push(transport.auth_header);
    }
  }
  for (const agent of Object.values(config.acp.agents)) collectEnv(agent.env ?? {}, whole, embedded);

  const wellKnown = [...PROVIDER_ENV.cloud_a, ...PROVIDER_ENV.cloud_b, ...HOSTED_OPENAI_COMPATIBLE_TYPES.map((t) => `${t.toUpperCase()}_API_KEY`)];
  for (const name of wellKnown) ctx.redactor.add(ctx.env[name]);

  const resolveCtx = { env: ctx.env, secrets: ctx.secrets, redactor: ctx.redactor };
  await Promise.all(whole.map((value) => resolveSecret(value, resolveCtx).catch(() => undefined)));
  for (const value of embedded) {
    for (const match of value.matchAll(EMBEDDED_REF)) {
      await resolveSecret(match[0], resolveCtx).catch(() => undefined);
    }
  }
}

/**
 * Env tables mix credentials with harmless settings: references are always secrets, literals only
 * when the variable's name says so (redacting "production" everywhere would be noise).
 */
function collectEnv(env: Record<string, string>, whole: string[], embedded: string[]): void {
  for (const [name, value] of Object.entries(env)) {
    if (SECRET_NAME.test(name) || /^\{(env|secret):[^}]+\}$/.test(value.trim())) whole.push(value);
    else embedded.push(value);
  }
}
