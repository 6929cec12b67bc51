/** What queryEmbedding.ts (main thread) and queryEmbedWorker.ts (the worker) exchange. */
import type { RemoteEmbedderSpec } from './createEmbedder';
import type { EmbeddingErrorCode } from './embedder';

/** The one request a query worker answers. */
export interface QueryWorkerRequest {
  spec: RemoteEmbedderSpec;
  query: string;
}

export type QueryWorkerReply = { type: 'vector'; vector: Float32Array } | { type: 'error'; code: EmbeddingErrorCode; message: string; status?: number };

/** A reply as the main thread accepts it: a non-empty vector of finite numbers, or an `embedding.*` error. */
export function isQueryWorkerReply(value: unknown): value is QueryWorkerReply {
  const reply = value as Partial<Record<string, unknown>> | null;
  if (typeof reply !== 'object' || reply === null) return false;
  if (reply.type === 'vector') return reply.vector instanceof Float32Array && reply.vector.length > 0 && reply.vector.every(Number.isFinite);
  return reply.type === 'error' && typeof reply.code === 'string' && reply.code.startsWith('embedding.') && typeof reply.message === 'string' && (reply.status === undefined || typeof reply.status === 'number');
}
