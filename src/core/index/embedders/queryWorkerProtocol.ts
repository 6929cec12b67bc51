/** What queryEmbedding.ts (main thread) and queryEmbedWorker.ts (the worker) exchange. */
import type { RemoteEmbedderSpec } from './createEmbedder';
import type { EmbeddingErrorCode } from './embedder';

/** The one request a query worker answers. */
export interface QueryWorkerRequest {
  spec: RemoteEmbedderSpec;
  query: string;
}

export type QueryWorkerReply = { type: 'vector'; vector: Float32Array } | { type: 'error'; code: EmbeddingErrorCode; message: string; status?: number };
