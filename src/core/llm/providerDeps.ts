/**
 * What every provider needs from its host: the environment and secret store to resolve keys, the
 * redactor that keeps them out of logs, a logger. Passed through constructors, never global.
 */
import type { Logger, SecretStore } from '../host';
import type { Redactor } from '../logging/redactingLogger';

export interface ProviderDeps {
  env: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  redactor?: Redactor;
  log?: Logger;
  /** SDK retries for 429/5xx/connection errors; tests set 0 so failures are immediate. Default 1. */
  maxRetries?: number;
}
