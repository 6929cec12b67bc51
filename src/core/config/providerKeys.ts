/**
 * Provider keys, resolved once when the configuration loads (issue 14, "config resolution in one
 * place"). The contract: a provider's key is read when the config is (re)loaded — its `api_key`
 * reference (`{env:VAR}`, `{secret:NAME}`, a bare `VAR`, a literal), else its type's key variables
 * (`CLOUD_A_API_KEY`, then `OPENAI_API_KEY`, …) — and providers and embedders receive that value.
 * Nothing reads a key variable at use: a variable or secret changed mid-session applies at the next
 * reload (the editor reloads when a config file changes, when trust is granted and when a secret is
 * set with "Hearth: Set API Key"; each CLI run loads once). Keys are never stored in the config
 * object (`hearth config` prints references), and every resolved key is fed to the redactor.
 */
import type { SecretStore } from '../host';
import type { Redactor } from '../logging/redactor';
import { canonicalProviderType, providerKeyVariables } from './providerTypes';
import { resolveSecret } from './resolveSecret';
import type { HearthConfig } from './schema';

/** Name of the implicit provider described by `[chat]` when no `[llm.providers]` exist. */
export const IMPLICIT_PROVIDER_NAME = 'chat';

export interface ProviderKeys {
  /** By `[llm.providers]` name (`chat` for the implicit provider); undefined where no key was found. */
  llm: Readonly<Record<string, string | undefined>>;
  /** The `[embedding]` provider's key (cloud_a / cloud_b read their key variables). */
  embedding: string | undefined;
}

export const NO_PROVIDER_KEYS: ProviderKeys = Object.freeze({ llm: Object.freeze({}), embedding: undefined });

export interface KeySources {
  env: NodeJS.ProcessEnv;
  /** The host's secret store for `{secret:NAME}` (the editor's SecretStorage; the CLI reads variable NAME). */
  secrets?: SecretStore;
  redactor?: Redactor;
}

/** Reads every configured provider's key once; see the file comment for the contract. */
export async function resolveProviderKeys(config: HearthConfig, sources: KeySources): Promise<ProviderKeys> {
  const ctx = { env: sources.env, secrets: sources.secrets, redactor: sources.redactor };
  const fromVariables = (type: string) => resolveFirst(providerKeyVariables(type), ctx);
  const llm: Record<string, string | undefined> = {};
  const tables = Object.entries(config.llm.providers);
  if (tables.length === 0) {
    llm[IMPLICIT_PROVIDER_NAME] = await fromVariables(config.chat.provider);
  }
  for (const [name, table] of tables) {
    if (table.type === undefined) continue;
    const configured = table.api_key !== undefined && table.api_key.trim() !== '';
    llm[name] = configured ? await resolveSecret(table.api_key, ctx) : await fromVariables(table.type);
  }
  const embeddingType = canonicalProviderType(config.embedding.provider);
  const embedding = embeddingType === 'cloud_a' || embeddingType === 'cloud_b' ? await fromVariables(embeddingType) : undefined;
  return Object.freeze({ llm: Object.freeze(llm), embedding });
}

/** How long one load waits for the host's secret store: a keyring waiting to be unlocked must not stall the editor. */
export const SECRET_READ_TIMEOUT_MS = 5_000;

/**
 * The host's store as one load reads it: each name at most once (the redactor's walk and the keys
 * share the answer), and a read that does not answer within `timeoutMs` counts as unset (`onTimeout`
 * reports it; the next reload asks again).
 */
export function loadSecretStore(store: SecretStore, timeoutMs: number, onTimeout: (name: string) => void): SecretStore {
  const reads = new Map<string, Promise<string | undefined>>();
  return {
    get(name) {
      let read = reads.get(name);
      if (!read) {
        read = new Promise<string | undefined>((resolve, reject) => {
          const timer = setTimeout(() => {
            onTimeout(name);
            resolve(undefined);
          }, timeoutMs);
          timer.unref?.();
          store.get(name).then(
            (value) => (clearTimeout(timer), resolve(value)),
            (error: unknown) => (clearTimeout(timer), reject(error)),
          );
        });
        reads.set(name, read);
      }
      return read;
    },
  };
}

async function resolveFirst(names: readonly string[], ctx: Parameters<typeof resolveSecret>[1]): Promise<string | undefined> {
  for (const name of names) {
    const value = await resolveSecret(`{env:${name}}`, ctx);
    if (value !== undefined) return value;
  }
  return undefined;
}
