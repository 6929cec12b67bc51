/**
 * Registers every secret the configuration can reach with the Redactor, as soon as it is loaded,
 * so no user-facing string ever shows one, even from code that prints a value before resolving it
 * itself. The whole config is walked, so a key added later (a database URL, a new transport) is
 * covered by its shape: URL userinfo and secret-named query values, `api_key` / `auth_header`,
 * secret-named `env` values, `{env:}` / `{secret:}` references anywhere, values after `--token`-style
 * `args`. Harmless literals (`MODE = "DEBUG"`) are not registered.
 */
import { parseSecretReference, resolveSecret } from './resolveSecret';
import { LLM_PROVIDER_TYPES, providerKeyVariables } from './providerTypes';
import type { HearthConfig } from './schema';
import type { SecretStore } from '../host';
import { isSecretName, type Redactor } from '../logging/redactor';

/** `{env:X}` / `{secret:X}` anywhere in a value, e.g. `auth_header = "Bearer {env:TOKEN}"`. */
const EMBEDDED_REF = /\{(env|secret):([^}]+)\}/g;
/** `auth_header = "Bearer abc…"`: the credential is the part after the scheme. */
const AUTH_SCHEME = /^(?:Bearer|Basic|Token)\s+(\S+)$/i;
/** Keys whose whole value is a credential (a literal, or a reference to one). */
const CREDENTIAL_KEYS = new Set(['api_key', 'auth_header']);

export interface SecretContext {
  env: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  redactor: Redactor;
}

/** Resolves and registers every secret of `config` (and the well-known key variables). */
export async function registerConfigSecrets(config: HearthConfig, ctx: SecretContext): Promise<void> {
  const { redactor } = ctx;
  const credentials: string[] = [];
  const references: string[] = [];
  walk(config, [], (path, value) => {
    const key = path[path.length - 1];
    const parent = path[path.length - 2];
    redactor.addUrl(value);
    const refs = [...value.matchAll(EMBEDDED_REF)].map((match) => match[0]);
    references.push(...refs);
    if (CREDENTIAL_KEYS.has(key)) {
      // `Bearer {env:X}` is not itself a secret (printing it as written is the point): X's value is.
      if (refs.length > 0) return;
      credentials.push(value);
      redactor.add(AUTH_SCHEME.exec(value.trim())?.[1]);
    } else if (parent === 'env' && isSecretName(key) && parseSecretReference(value).kind !== 'env' && parseSecretReference(value).kind !== 'secret') {
      // Env tables mix credentials with settings: a literal is a secret only when its name says so.
      redactor.add(value);
    }
  }, (args) => redactor.addArgs(args));

  const wellKnown = LLM_PROVIDER_TYPES.flatMap(providerKeyVariables);
  for (const name of wellKnown) redactor.add(ctx.env[name]);

  const resolveCtx = { env: ctx.env, secrets: ctx.secrets, redactor };
  await Promise.all([...credentials, ...references].map((value) => resolveSecret(value, resolveCtx).catch(() => undefined)));
}

/** Calls `onString` for every string in the config with its key path, `onList` for every list of strings. */
function walk(value: unknown, path: string[], onString: (path: string[], value: string) => void, onList: (values: string[]) => void): void {
  if (typeof value === 'string') onString(path, value);
  else if (Array.isArray(value)) {
    if (value.every((item) => typeof item === 'string')) onList(value as string[]);
    value.forEach((item) => walk(item, path, onString, onList));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) walk(item, [...path, key], onString, onList);
  }
}
