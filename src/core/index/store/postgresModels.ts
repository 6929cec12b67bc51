import type { PoolClient } from 'pg';
import { createPool, describeDatabase, withClient } from './postgresConnection';
import { migrate } from './postgresSchema';

/** One `hearth_models` row of a provider and model name: a dimension someone's endpoint answered. */
export interface StoredModel {
  id: number;
  dim: number;
}

/** Every row of (provider, model), oldest first: more than one means endpoints disagree on what the name is. */
export async function storedModels(client: PoolClient, provider: string, model: string): Promise<StoredModel[]> {
  const rows = await client.query<StoredModel>('SELECT id, dim FROM hearth_models WHERE provider = $1 AND model = $2 ORDER BY id', [provider, model]);
  return rows.rows;
}

/**
 * The rows of (provider, model) in the database at `url` (migrated first), so opening needs no probe
 * embedding when there is one: a member joining an indexed kiln makes no embedding call at all.
 */
export async function modelsInDatabase(url: string, provider: string, model: string): Promise<StoredModel[]> {
  const where = describeDatabase(url);
  const pool = createPool(url, () => {});
  try {
    return await withClient(pool, where, async (client) => {
      await migrate(client, where);
      return storedModels(client, provider, model);
    });
  } finally {
    await pool.end().catch(() => {});
  }
}

/** The warning for a row this member does not use (its vectors are another model's, of another length). */
export function skippedModelWarning(row: StoredModel, provider: string, model: string, dim: number): string {
  return (
    `hearth_models row ${row.id} (${provider} "${model}", ${row.dim} dimensions) in the shared database is skipped: ` +
    `this endpoint's "${model}" answers ${dim}-dimension vectors. Another member's endpoint serves a different model under this name; ` +
    'give one of them its own [embedding].model name so each keeps its own vectors.'
  );
}

/**
 * The dimension a member opens the shared index with. One row: its dimension, with no embedding
 * call (a member joining an indexed kiln embeds nothing). Several (an endpoint served another
 * model under the same name): the member's own model decides, and each other row is skipped with
 * a warning, instead of every member failing on vectors of the wrong length. None: undefined.
 */
export async function chooseDimension(
  rows: readonly StoredModel[],
  own: () => Promise<number>,
  warn: (message: string) => void,
  names: { provider: string; model: string },
): Promise<number | undefined> {
  if (rows.length <= 1) return rows[0]?.dim;
  const dim = await own();
  for (const row of rows) if (row.dim !== dim) warn(skippedModelWarning(row, names.provider, names.model, dim));
  return dim;
}
