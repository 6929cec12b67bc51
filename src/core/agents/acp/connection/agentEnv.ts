import { parseSecretReference } from '../../../config/resolveSecret';
import type { SecretStore } from '../../../host';
import type { Redactor } from '../../../logging/redactingLogger';

export interface ResolvedAgentEnv {
  /** Only the profile's variables, resolved; the caller layers them over the inherited environment. */
  values: Record<string, string>;
  /** `env.KEY` entries whose `{env:VAR}` / `{secret:NAME}` reference is unset, as "KEY ({env:VAR})". */
  missing: string[];
}

/**
 * Resolves a profile's `env.<VAR>` values (spec 2.5): `{env:VAR}` reads the environment and
 * `{secret:NAME}` the host's secret store (then the variable NAME), at start, so keys never sit in
 * the config object. Other values are literal: an agent's environment often holds plain words in
 * capitals (`DEBUG = "TRUE"`) that must not be mistaken for variable names. Resolved values are
 * registered with the redactor so they never reach a log line.
 */
export async function resolveAgentEnv(env: Record<string, string>, ctx: { env: NodeJS.ProcessEnv; secrets?: SecretStore; redactor?: Redactor }): Promise<ResolvedAgentEnv> {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const [key, raw] of Object.entries(env)) {
    const ref = parseSecretReference(raw);
    let value: string | undefined;
    if (ref.kind === 'env') value = ctx.env[ref.name];
    else if (ref.kind === 'secret') value = (await ctx.secrets?.get(ref.name).catch(() => undefined)) || ctx.env[ref.name];
    else value = raw;
    if (value === undefined || (ref.kind !== 'literal' && ref.kind !== 'bare' && value === '')) {
      missing.push(`${key} (${raw.trim()})`);
      continue;
    }
    if (ref.kind === 'env' || ref.kind === 'secret') ctx.redactor?.add(value);
    values[key] = value;
  }
  return { values, missing };
}
