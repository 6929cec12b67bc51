import type { EmbedderSetup } from './embedders/createEmbedder';
import { postgresOptions } from './store/postgresOptions';
import { openOrRebuildVectorStore, type OpenedStore } from './store/openStore';
import { readStoredHeader } from './storedHeader';
import type { StoreKind } from './store/vectorStore';

/** What opening reads of a KilnIndex's options: the database's sources, and a `--copy-to` source's dimension. */
export type StoreOpeningSources = Parameters<typeof postgresOptions>[0] & { copySource?: { dim: number } };

/**
 * The store a KilnIndex opens: the kind `[processing].store` names, for vectors of the dimension it
 * already holds for this model, else the copy source's (`--copy-to`), else the model's own (one
 * probe embedding). A flat or vectra index that is damaged or was built with another model comes
 * back emptied, with the reason (`rebuilt`).
 */
export async function openIndexStore(
  kind: StoreKind,
  dir: string,
  setup: Pick<EmbedderSetup, 'providerType' | 'model'>,
  options: StoreOpeningSources,
  probeDimension: () => Promise<number>,
): Promise<OpenedStore> {
  const { providerType, model } = setup;
  if (kind === 'postgres') {
    // The shared database: the model's dimension comes from it when any member stored this model.
    const database = await postgresOptions(options, dir);
    const [{ PostgresStore }, { chooseDimension, modelsInDatabase }] = await Promise.all([import('./store/postgresStore'), import('./store/postgresModels')]);
    const own = async () => options.copySource?.dim ?? (await probeDimension());
    const rows = await modelsInDatabase(database.url, providerType, model);
    const dim = (await chooseDimension(rows, own, (message) => options.log.child('index').warn(message), { provider: providerType, model })) ?? (await own());
    const store = new PostgresStore(database, { providerType, model, dim });
    try {
      await store.open();
    } catch (error) {
      await store.dispose();
      throw error;
    }
    return { store };
  }
  const stored = await readStoredHeader(kind, dir);
  // The dimension is the index's when it was built with this model; otherwise the model says.
  const dim = stored && stored.providerType === providerType && stored.model === model ? stored.dim : (options.copySource?.dim ?? (await probeDimension()));
  // A writer lock committed with the repository, or left by a dead process, is broken and said so.
  return openOrRebuildVectorStore(kind, dir, { providerType, model, dim }, { notice: (line) => options.log.child('index').warn(line) });
}
