import { realpath } from 'node:fs/promises';
import { hostname } from 'node:os';
import * as path from 'node:path';
import type { ProcessingConfig } from '../../config/schema';
import { resolveSecret } from '../../config/resolveSecret';
import { HearthError } from '../../errors';
import type { Logger, SecretStore } from '../../host';
import type { Redactor } from '../../logging/redactor';
import { resolveKilnId } from '../kilnId';
import type { ConfirmKilnClaim } from './postgresKilnClaim';
import type { PostgresStoreOptions } from './postgresStore';

/** `store = "postgres"` without a usable `database_url` (unset, an unset variable, not a postgres URL). */
export class DatabaseConfigError extends HearthError {
  constructor(message: string) {
    super('index.database_config', message);
  }
}

interface Sources {
  kilnRoot: string;
  /** Asks before this kiln takes over a kiln id another folder claimed (the editor); else a warning. */
  confirmKilnClaim?: ConfirmKilnClaim;
  processing: ProcessingConfig;
  embedderDeps: { env: NodeJS.ProcessEnv; secrets?: SecretStore; redactor?: Redactor };
  log: Logger;
}

/** Resolves `[processing].database_url` ({env:} / {secret:}, fed to the redactor) and the kiln id. */
export async function postgresOptions(sources: Sources, dir: string): Promise<PostgresStoreOptions> {
  const { processing, embedderDeps } = sources;
  if (!processing.database_url) throw new DatabaseConfigError('[processing] store = "postgres" needs database_url (e.g. "{env:HEARTH_DATABASE_URL}").');
  const url = await resolveSecret(processing.database_url, { env: embedderDeps.env, secrets: embedderDeps.secrets, redactor: embedderDeps.redactor });
  if (!url) throw new DatabaseConfigError(`[processing].database_url refers to ${processing.database_url}, which is unset or empty.`);
  embedderDeps.redactor?.addUrl(url);
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  // The resolved value is never quoted: it may carry a password.
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') throw new DatabaseConfigError(`[processing].database_url (${processing.database_url}) does not resolve to a postgres:// URL.`);
  const kilnId = await resolveKilnId(sources.kilnRoot, processing.kiln_id);
  const real = await realpath(sources.kilnRoot).catch(() => path.resolve(sources.kilnRoot));
  const root = `${hostname()}:${real}`;
  return { url, kilnId, root, confirmClaim: sources.confirmKilnClaim, dir, log: (message) => sources.log.warn(message) };
}
