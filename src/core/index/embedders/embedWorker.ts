/**
 * The embedding worker (a worker_thread, bundled as dist/embedWorker.js): runs the local model (a
 * static table or transformers.js) so model loading and inference never block the extension host's
 * main thread. Protocol: see workerEmbedder.ts (init once, then embed requests matched to replies by id).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EmbeddingError } from './embedder';
import { LocalModelEmbedder } from './localEmbedder';
import type { TransformersOptions } from './transformersEmbedder';
import type { WorkerReply, WorkerRequest } from './workerProtocol';

const port = parentPort!;
const options = workerData as Omit<TransformersOptions, 'onProgress'>;
const embedder = new LocalModelEmbedder({ ...options, onProgress: (message) => post({ type: 'progress', message }) });

function post(reply: WorkerReply): void {
  port.postMessage(reply, reply.type === 'vectors' ? [reply.data.buffer as ArrayBuffer] : []);
}

function packed(id: number, vectors: Float32Array[]): WorkerReply {
  const dim = vectors[0]?.length ?? 0;
  const data = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => data.set(v, i * dim));
  return { type: 'vectors', id, data, dim };
}

port.on('message', (request: WorkerRequest) => {
  if (request.type === 'dispose') {
    void embedder.dispose().finally(() => port.close());
    return;
  }
  embedder.embed(request.texts).then(
    (vectors) => post(packed(request.id, vectors)),
    (error: unknown) => {
      const e = error as { message?: string };
      post({ type: 'error', id: request.id, code: error instanceof EmbeddingError ? error.code : 'embedding.failed', message: e?.message ?? String(error) });
    },
  );
});
