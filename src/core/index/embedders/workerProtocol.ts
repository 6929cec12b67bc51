/** Messages between workerEmbedder.ts (main thread) and embedWorker.ts (the worker). */
import type { EmbeddingErrorCode } from './embedder';
export type WorkerRequest = { type: 'embed'; id: number; texts: string[] } | { type: 'dispose' };

export type WorkerReply =
  | { type: 'vectors'; id: number; vectors: Float32Array[] }
  | { type: 'error'; id: number; code: EmbeddingErrorCode; message: string }
  | { type: 'progress'; message: string };
