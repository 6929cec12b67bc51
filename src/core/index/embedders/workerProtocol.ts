/** Messages between workerEmbedder.ts (main thread) and embedWorker.ts (the worker). */
import type { EmbeddingErrorCode } from './embedder';
export type WorkerRequest = { type: 'embed'; id: number; texts: string[] } | { type: 'dispose' };

export type WorkerReply =
  /** The vectors one after another in one transferred buffer (`dim` numbers each): cloning thousands of small arrays cost more than a static model's embedding. */
  | { type: 'vectors'; id: number; data: Float32Array; dim: number }
  | { type: 'error'; id: number; code: EmbeddingErrorCode; message: string }
  | { type: 'progress'; message: string };
