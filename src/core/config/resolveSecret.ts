/**
 * Secret references (DESIGN.md decision 2): `{env:VAR}` reads VAR at use; `{secret:NAME}` reads the
 * host's secret store (VS Code SecretStorage in the editor) and falls back to the environment
 * variable NAME (what the CLI host does); a bare ENV_NAME is read from that variable; anything else
 * is a literal. Values are resolved at use, never stored in the config object.
 */
import { HearthError } from '../errors';
import type { SecretStore } from '../host';
import type { Redactor } from '../logging/redactingLogger';
import { canonicalProviderType, providerKeyVariables } from './providerTypes';

export const BARE_ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
const ENV_REF = /^\{env:([^}]+)\}$/;
const SECRET_REF = /^\{secret:([^}]+)\}$/;

export type SecretReference =
  | { kind: 'env'; name: string }
  | { kind: 'secret'; name: string }
  | { kind: 'bare'; name: string }
  | { kind: 'literal' };

/** Classifies a configured value without reading anything. */
export function parseSecretReference(value: string): SecretReference {
  const trimmed = value.trim();
  const env = ENV_REF.exec(trimmed);
  if (env) return { kind: 'env', name: env[1].trim() };
  const secret = SECRET_REF.exec(trimmed);
  if (secret) return { kind: 'secret', name: secret[1].trim() };
  if (BARE_ENV_NAME.test(trimmed)) return { kind: 'bare', name: trimmed };
  return { kind: 'literal' };
}

export interface ResolveSecretContext {
  env: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  /** When given, every resolved value is registered so it never reaches a log line. */
  redactor?: Redactor;
}

/** The value behind a reference; undefined when the variable/secret is unset or the value empty. */
export async function resolveSecret(value: string | undefined, ctx: ResolveSecretContext): Promise<string | undefined> {
  if (value === undefined || value.trim() === '') return undefined;
  const ref = parseSecretReference(value);
  let resolved: string | undefined;
  switch (ref.kind) {
    case 'env':
    case 'bare':
      resolved = ctx.env[ref.name];
      break;
    case 'secret':
      resolved = (await readSecretStore(ctx.secrets, ref.name)) ?? ctx.env[ref.name];
      break;
    case 'literal':
      resolved = value;
      break;
  }
  if (resolved === undefined || resolved === '') return undefined;
  ctx.redactor?.add(resolved);
  return resolved;
}

async function readSecretStore(secrets: SecretStore | undefined, name: string): Promise<string | undefined> {
  if (!secrets) return undefined;
  try {
    return (await secrets.get(name)) || undefined;
  } catch {
    // A broken keychain must not hide the environment fallback.
    return undefined;
  }
}

/** The environment variable a user should set for a provider type's key; undefined when none is needed. */
export function apiKeyEnvHint(type: string): string | undefined {
  const canonical = canonicalProviderType(type);
  if (canonical === 'local_runner' || canonical === 'githubcopilot') return undefined;
  return providerKeyVariables(canonical)[0] ?? `${canonical.toUpperCase()}_API_KEY`;
}

/**
 * A hosted provider has no usable key. The message names the provider and what to set; it never
 * contains a key (there is none to leak).
 */
export class MissingSecretError extends HearthError {
  constructor(
    readonly provider: string,
    readonly providerType: string,
    /** The variable or secret the configuration points at, when it points at one. */
    readonly reference?: SecretReference,
    /** The provider is the implicit one described by `[chat]`, which has no api_key key. */
    implicit = false,
  ) {
    super('config.missing_secret', missingSecretMessage(provider, providerType, reference, implicit));
  }
}

function missingSecretMessage(provider: string, type: string, ref: SecretReference | undefined, implicit: boolean): string {
  const hint = apiKeyEnvHint(type) ?? `${type.toUpperCase()}_API_KEY`;
  if (implicit) {
    return `The [chat] provider (${type}) needs an API key: set the environment variable ${hint}, or describe the provider in an [llm.providers.NAME] table with api_key = "{env:VAR}".`;
  }
  const table = `[llm.providers.${provider}]`;
  if (ref && ref.kind !== 'literal') {
    const where = ref.kind === 'secret' ? `the secret "${ref.name}" (Hearth: Set API Key, or the environment variable ${ref.name})` : `the environment variable ${ref.name}`;
    return `Provider "${provider}" (${type}) needs an API key: ${where} is not set.`;
  }
  return `Provider "${provider}" (${type}) needs an API key: set the environment variable ${hint}, or api_key = "{env:VAR}" in ${table}.`;
}
