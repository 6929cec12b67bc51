import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Progress } from '../../host';
import { type Embedder, EmbeddingError } from './embedder';
import type { TransformersOptions } from './transformersEmbedder';
import type { WorkerReply, WorkerRequest } from './workerProtocol';

/**
 * The main-thread face of the transformers.js embedder: the model lives in a worker_thread
 * (embedWorker.ts), started on first use and ended by dispose(). Bundled builds load
 * dist/embedWorker.js beside the bundle; from sources (tests) the .ts file runs through tsx.
 */
export class WorkerEmbedder implements Embedder {
  readonly providerType: string;
  readonly model: string;
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: Float32Array[]): void; reject(e: unknown): void }>();

  constructor(
    private readonly options: Omit<TransformersOptions, 'onProgress'>,
    private readonly progress?: Progress,
  ) {
    this.providerType = options.providerType;
    this.model = options.model;
  }

  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    signal?.throwIfAborted();
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      // An abort stops waiting; the batch already in the worker finishes and is dropped.
      const onAbort = () => {
        this.pending.delete(id);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => (signal?.removeEventListener('abort', onAbort), resolve(v)),
        reject: (e) => (signal?.removeEventListener('abort', onAbort), reject(e)),
      });
      // Referenced only while a request waits, so an idle worker never keeps the process alive.
      worker.ref();
      worker.postMessage({ type: 'embed', id, texts } satisfies WorkerRequest);
    });
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    this.failAll(new EmbeddingError('embedding.disposed', 'The embedder was closed.'));
    await worker.terminate();
  }

  private start(): Worker {
    const bundled = join(__dirname, 'embedWorker.js');
    const worker = existsSync(bundled)
      ? new Worker(bundled, { workerData: this.options })
      : new Worker(fromSources(join(__dirname, 'embedWorker.ts')), { eval: true, workerData: this.options });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'progress') {
        this.progress?.report({ message: reply.message });
        return;
      }
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.type === 'vectors') waiter?.resolve(Array.from({ length: reply.dim > 0 ? reply.data.length / reply.dim : 0 }, (_, i) => reply.data.subarray(i * reply.dim, (i + 1) * reply.dim)));
      else waiter?.reject(new EmbeddingError(reply.code, reply.message));
    });
    worker.on('error', (error) => this.failAll(new EmbeddingError('embedding.worker_failed', `The embedding worker failed: ${error.message}`, undefined, { cause: error })));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new EmbeddingError('embedding.worker_failed', `The embedding worker exited (code ${code}).`));
    });
    return worker;
  }

  private failAll(error: EmbeddingError): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    this.worker?.unref();
  }
}

/**
 * Code for an eval worker that runs a TypeScript file from sources (tests, `node --import tsx`):
 * tsx is resolved from that file, not from the working directory (a command run in a scratch
 * folder has none there).
 */
function fromSources(file: string): string {
  return `const from = require('node:module').createRequire(${JSON.stringify(file)}); from('tsx/cjs'); from(${JSON.stringify(file)});`;
}
