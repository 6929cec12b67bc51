/** Messages between workerEmbedder.ts (main thread) and embedWorker.ts (the worker). */
export type WorkerRequest = { type: 'embed'; id: number; texts: string[] } | { type: 'dispose' };

export type WorkerReply =
  | { type: 'vectors'; id: number; vectors: Float32Array[] }
  | { type: 'error'; id: number; code: string; message: string }
  | { type: 'progress'; message: string };
