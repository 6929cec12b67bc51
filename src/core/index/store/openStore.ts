import type { StoreHeader, StoreKind, VectorStore } from './vectorStore.js';

/** Opens (or creates) the store of that kind in `dir` (usually `<kiln>/.hearth/index/<kind>`). */
export async function openVectorStore(kind: StoreKind, dir: string, header: StoreHeader): Promise<VectorStore> {
  const store =
    kind === 'vectra'
      ? new (await import('./vectraStore.js')).VectraStore(dir, header)
      : new (await import('./flatStore.js')).FlatStore(dir, header);
  await store.open();
  return store;
}
