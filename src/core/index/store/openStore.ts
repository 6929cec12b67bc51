import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { isHearthError } from '../../errors';
import type { StoreHeader, StoreKind, VectorStore } from './vectorStore';

/** Where a kiln keeps the index of each kind. */
export function storeDir(kilnRoot: string, kind: StoreKind): string {
  return path.join(kilnRoot, '.hearth', 'index', kind);
}

/** Opens (or creates) the store of that kind in `dir`; throws the typed errors of VectorStore.open. */
export async function openVectorStore(kind: StoreKind, dir: string, header: StoreHeader, options: { notice?: (line: string) => void } = {}): Promise<VectorStore> {
  const store =
    kind === 'vectra'
      ? new (await import('./vectraStore')).VectraStore(dir, header)
      : new (await import('./flatStore')).FlatStore(dir, header, { notice: options.notice });
  await store.open();
  return store;
}

export interface OpenedStore {
  store: VectorStore;
  /** Set when the index on disk could not be used and was emptied: the caller re-embeds every note and says why. */
  rebuilt?: { code: 'index.corrupt' | 'index.header_mismatch'; message: string };
}

/**
 * Opens the store, or, when the index on disk is damaged or was built with another embedding
 * provider/model/dimension, removes it and opens an empty one.
 */
export async function openOrRebuildVectorStore(kind: StoreKind, dir: string, header: StoreHeader, options: { notice?: (line: string) => void } = {}): Promise<OpenedStore> {
  try {
    return { store: await openVectorStore(kind, dir, header, options) };
  } catch (error) {
    if (!isHearthError(error) || (error.code !== 'index.corrupt' && error.code !== 'index.header_mismatch')) throw error;
    await fsp.rm(dir, { recursive: true, force: true });
    return { store: await openVectorStore(kind, dir, header, options), rebuilt: { code: error.code, message: error.message } };
  }
}
