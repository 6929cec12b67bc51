import { chunkTextHash } from './chunkText';
import { HearthError } from '../errors';
import type { ChunkRecord, VectorStore } from './store/vectorStore';

/** `hearth index --copy-to` from a store that cannot hand out its vectors (vectra). */
export class CopyUnsupportedError extends HearthError {
  constructor(kind: string) {
    super('index.copy_unsupported', `Vectors cannot be copied out of the ${kind} store; copy from flat or postgres.`);
  }
}

/** Every vector of the store keyed by the text hash of its chunk: what another store needs to skip the embedder. */
export async function vectorsByTextHash(store: VectorStore): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  const withVectors = store as VectorStore & { chunkVectors?: () => Iterable<[ChunkRecord, Float32Array]> };
  if (withVectors.chunkVectors) {
    for (const [chunk, vector] of withVectors.chunkVectors()) out.set(chunk.textHash ?? chunkTextHash(chunk), vector);
    return out;
  }
  if (store.knownVectors) {
    const hashes = new Set<string>();
    for (const chunk of store.chunks()) hashes.add(chunk.textHash ?? chunkTextHash(chunk));
    const all = [...hashes];
    for (let i = 0; i < all.length; i += 1000) for (const [hash, vector] of await store.knownVectors(all.slice(i, i + 1000))) out.set(hash, vector);
    return out;
  }
  throw new CopyUnsupportedError(store.kind);
}
