/**
 * What every provider needs from its host: the redactor that keeps keys out of messages, a logger.
 * Keys are not read here: they arrive resolved in the provider's settings (config/providerKeys.ts).
 * Passed through constructors, never global.
 */
import type { Logger } from '../host';
import type { Redactor } from '../logging/redactingLogger';

export interface ProviderDeps {
  redactor?: Redactor;
  log?: Logger;
  /** SDK retries for 429/5xx/connection errors; tests set 0 so failures are immediate. Default 1. */
  maxRetries?: number;
}
