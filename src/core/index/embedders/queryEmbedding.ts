import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Redactor } from '../../logging/redactor';
import type { RemoteEmbedderSpec } from './createEmbedder';
import { EmbeddingError } from './embedder';
import type { QueryWorkerReply, QueryWorkerRequest } from './queryWorkerProtocol';

/**
 * A worker thread (queryEmbedWorker.ts) that embeds one search query with a web-service embedder.
 * A cold `hearth search` starts it before anything else, so the provider's SDK and the HTTP stack
 * load on another core while this thread reads the config and opens the index. It answers one
 * `embed` and ends; `dispose` ends it unused (a local model, a text search).
 */
export class QueryEmbeddingWorker {
  private readonly worker: Worker;
  private used = false;

  constructor() {
    const bundled = join(__dirname, 'queryEmbedWorker.js');
    this.worker = existsSync(bundled) ? new Worker(bundled) : new Worker(`require('tsx/cjs'); require(${JSON.stringify(join(__dirname, 'queryEmbedWorker.ts'))});`, { eval: true });
    // Never what keeps the process alive: an embed in flight holds its own reference.
    this.worker.unref();
    this.worker.on('error', () => undefined);
  }

  /** Whether `embed` was asked (it answers once). */
  get spent(): boolean {
    return this.used;
  }

  /** The query's embedding. Its error text is scrubbed again here with every secret this process knows. */
  embed(spec: RemoteEmbedderSpec, query: string, redactor: Redactor | undefined, signal?: AbortSignal): Promise<Float32Array> {
    signal?.throwIfAborted();
    if (this.used) return Promise.reject(new EmbeddingError('embedding.failed', 'The query embedding worker answers one query.'));
    this.used = true;
    const worker = this.worker;
    return new Promise<Float32Array>((resolve, reject) => {
      let settled = false;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        settle();
        void this.dispose();
      };
      const onAbort = () => finish(() => reject(signal!.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      const scrub = (text: string) => redactor?.redact(text) ?? text;
      worker.on('message', (reply: QueryWorkerReply) =>
        finish(() => (reply.type === 'vector' ? resolve(reply.vector) : reject(new EmbeddingError(reply.code, scrub(reply.message), reply.status)))),
      );
      worker.on('error', (error) => finish(() => reject(new EmbeddingError('embedding.worker_failed', `The query embedding worker failed: ${scrub(error.message)}`, undefined, { cause: error }))));
      worker.on('exit', (code) => finish(() => reject(new EmbeddingError('embedding.worker_failed', `The query embedding worker exited (code ${code}) without an answer.`))));
      worker.ref();
      worker.postMessage({ spec, query } satisfies QueryWorkerRequest);
    });
  }

  async dispose(): Promise<void> {
    this.used = true;
    await this.worker.terminate();
  }
}
