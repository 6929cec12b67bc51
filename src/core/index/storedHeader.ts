import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { MANIFEST } from './store/flatFiles';
import type { StoreHeader, StoreKind } from './store/vectorStore';

/** The vectra store keeps its header beside vectra's own index.json (see vectraStore.ts). */
const VECTRA_HEADER = 'hearth-header.json';

/**
 * The header of the index on disk, read without opening it: when it was built with the configured
 * provider and model, its dimension is known without loading the embedder (a no-op re-index must
 * not touch it). Undefined when there is no index or it cannot be read (opening it then decides).
 */
export async function readStoredHeader(kind: StoreKind, dir: string): Promise<StoreHeader | undefined> {
  try {
    const raw = JSON.parse(await fsp.readFile(path.join(dir, kind === 'flat' ? MANIFEST : VECTRA_HEADER), 'utf8')) as unknown;
    const header = (kind === 'flat' ? (raw as { header?: unknown }).header : raw) as Partial<StoreHeader> | undefined;
    if (!header || typeof header.providerType !== 'string' || typeof header.model !== 'string' || typeof header.dim !== 'number') return undefined;
    return { providerType: header.providerType, model: header.model, dim: header.dim };
  } catch {
    return undefined;
  }
}
