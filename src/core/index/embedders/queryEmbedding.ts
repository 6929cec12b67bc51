import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Redactor } from '../../logging/redactor';
import type { RemoteEmbedderSpec } from './createEmbedder';
import { EmbeddingError } from './embedder';
import { isQueryWorkerReply, type QueryWorkerRequest } from './queryWorkerProtocol';
import { QUERY_WORKER_BUNDLE, type QueryWorkerEnding, type StartedQueryWorker } from './queryWorkerThread';

type Outcome = { vector: Float32Array } | { error: unknown };
type Ending = QueryWorkerEnding;

/**
 * A worker thread (queryEmbedWorker.ts) that embeds one search query with a web-service embedder.
 * A cold `hearth search` starts it before anything else, so the provider's SDK and the HTTP stack
 * load on another core while this thread reads the config and opens the index. It answers one
 * `embed` and ends; `dispose` ends it unused (a local model, a text search). It never keeps the
 * process alive but while an embed is in flight, and every way it ends settles that embed.
 */
export class QueryEmbeddingWorker {
  private readonly worker: Worker;
  private used = false;
  private disposed = false;
  private ending: Ending | undefined;
  /** The embed in flight: settles it (once) and ends the worker. */
  private settle: ((outcome: Outcome) => void) | undefined;
  private scrub: (text: string) => string = (text) => text;

  /**
   * `start`: the thread to run (tests give one that misbehaves), or one started earlier
   * (queryWorkerThread.ts); by default the query worker.
   */
  constructor(start: () => Worker | StartedQueryWorker = startQueryWorker) {
    const started = start();
    const { worker, ended } = started instanceof Worker ? { worker: started, ended: undefined } : started;
    this.worker = worker;
    this.worker.on('message', (reply: unknown) => this.settle?.(this.outcomeOf(reply)));
    // A worker that died before `embed` was asked (a failed load) must fail that embed at once, not leave it waiting.
    this.worker.on('error', (error) => this.end({ error }));
    this.worker.on('exit', (code) => this.end({ code }));
    // Ended before this listened (a thread started early).
    if (ended) this.end(ended);
    // Never what keeps the process alive: an embed in flight holds its own reference. After the
    // 'message' listener, which refs the worker's port again.
    this.worker.unref();
  }

  /** Whether `embed` was asked or the worker disposed (it answers once). */
  get spent(): boolean {
    return this.used;
  }

  /** The query's embedding. Its error text is scrubbed again here with every secret this process knows. */
  embed(spec: RemoteEmbedderSpec, query: string, redactor: Redactor | undefined, signal?: AbortSignal): Promise<Float32Array> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.used) return Promise.reject(new EmbeddingError('embedding.failed', 'The query embedding worker answers one query.'));
    this.used = true;
    this.scrub = (text) => redactor?.redact(text) ?? text;
    if (this.ending) return Promise.reject(this.failure(this.ending));
    return new Promise<Float32Array>((resolve, reject) => {
      const onAbort = () => this.settle?.({ error: signal!.reason });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.settle = (outcome) => {
        this.settle = undefined;
        signal?.removeEventListener('abort', onAbort);
        if ('vector' in outcome) resolve(outcome.vector);
        else reject(outcome.error);
        void this.dispose();
      };
      this.worker.ref();
      this.worker.postMessage({ spec, query } satisfies QueryWorkerRequest);
    });
  }

  async dispose(): Promise<void> {
    this.used = true;
    if (this.disposed) return;
    this.disposed = true;
    this.settle?.({ error: new EmbeddingError('embedding.disposed', 'The query embedding was cancelled: the search ended first.') });
    await this.worker.terminate();
  }

  private end(ending: Ending): void {
    this.ending ??= ending;
    this.settle?.({ error: this.failure(ending) });
  }

  private failure(ending: Ending): EmbeddingError {
    if ('error' in ending) return new EmbeddingError('embedding.worker_failed', `The query embedding worker failed: ${this.scrub(String(ending.error?.message ?? ending.error))}`, undefined, { cause: ending.error });
    return new EmbeddingError('embedding.worker_failed', `The query embedding worker exited (code ${ending.code}) without an answer.`);
  }

  private outcomeOf(reply: unknown): Outcome {
    if (!isQueryWorkerReply(reply)) return { error: new EmbeddingError('embedding.worker_failed', 'The query embedding worker answered something that is neither a vector nor an error.') };
    if (reply.type === 'vector') return { vector: reply.vector };
    return { error: new EmbeddingError(reply.code, this.scrub(reply.message), reply.status) };
  }
}

/** The query worker: the bundle beside this file (dist/queryEmbedWorker.js) or, from sources, the TypeScript through tsx. */
export function startQueryWorker(): Worker {
  const bundled = join(__dirname, QUERY_WORKER_BUNDLE);
  if (existsSync(bundled)) return new Worker(bundled);
  return new Worker(fromSources(join(__dirname, 'queryEmbedWorker.ts')), { eval: true });
}

/**
 * Code for an eval worker that runs a TypeScript file from sources (tests, `node --import tsx`).
 * tsx is resolved from this file, not from the working directory (a test runs the CLI in a
 * scratch folder). tsx registers its ESM hooks on the main thread only, and the embedders are
 * reached through `import()`: the worker registers them itself.
 */
function fromSources(file: string): string {
  return `
    const { createRequire } = require('node:module');
    const { dirname, join } = require('node:path');
    const { pathToFileURL } = require('node:url');
    const from = createRequire(${JSON.stringify(file)});
    from('tsx/cjs');
    const tsx = from.resolve('tsx/package.json');
    const esmApi = join(dirname(tsx), from(tsx).exports['./esm/api'].import.default);
    import(pathToFileURL(esmApi).href).then(({ register }) => {
      register();
      from(${JSON.stringify(file)});
    });
  `;
}
