/**
 * The query worker (a worker_thread, bundled as dist/queryEmbedWorker.js): started by `hearth
 * search` before it reads its config, it loads the web-service embedders and the HTTP stack
 * (tens of milliseconds of a cold process) on another core, then embeds the one query it is sent.
 * Protocol: queryWorkerProtocol.ts.
 */
import { parentPort } from 'node:worker_threads';
import { Redactor } from '../../logging/redactor';
import { createRemoteEmbedder } from './createEmbedder';
import { EmbeddingError } from './embedder';
import type { QueryWorkerReply, QueryWorkerRequest } from './queryWorkerProtocol';

const port = parentPort!;

// Loaded before the request arrives: the embedders' modules and the Headers class (it loads undici's JavaScript).
const ready = Promise.all([import('./openaiEmbedder'), import('./ollamaEmbedder')]).then(() => new Headers());

function post(reply: QueryWorkerReply): void {
  port.postMessage(reply);
}

port.once('message', ({ spec, query }: QueryWorkerRequest) => {
  ready
    .then(() => createRemoteEmbedder(spec, new Redactor()))
    .then((embedder) => embedder.embed([query]))
    .then(
      ([vector]) => post({ type: 'vector', vector }),
      (error: unknown) => {
        if (error instanceof EmbeddingError) post({ type: 'error', code: error.code, message: error.message, ...(error.status ? { status: error.status } : {}) });
        else post({ type: 'error', code: 'embedding.failed', message: (error as Error)?.message ?? String(error) });
      },
    );
});
