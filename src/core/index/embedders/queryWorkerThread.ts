/**
 * The query worker's thread, as started: dist/cli.js starts it first thing for a search that embeds
 * its query (a thread takes ~20 ms to start, and the embedder's SDK as long again to load, on the
 * other core), before the CLI's own code loads; the search adopts it (QueryEmbeddingWorker). Until
 * then, how it ended, if it did, is kept here: an error or exit emitted before the adopter listens
 * would otherwise be lost, and an embed would wait on a thread that is gone.
 */
import { Worker } from 'node:worker_threads';

/** The query worker's bundle, beside the bundles that start it (dist/). */
export const QUERY_WORKER_BUNDLE = 'queryEmbedWorker.js';

/** How a query worker ended on its own: an uncaught error, or an exit. */
export type QueryWorkerEnding = { error: Error } | { code: number };

export interface StartedQueryWorker {
  worker: Worker;
  ended?: QueryWorkerEnding;
}

/** A thread running `file`, which never keeps the process alive by itself. */
export function startQueryWorkerThread(file: string): StartedQueryWorker {
  const started: StartedQueryWorker = { worker: new Worker(file) };
  started.worker.on('error', (error) => (started.ended ??= { error }));
  started.worker.on('exit', (code) => (started.ended ??= { code }));
  started.worker.unref();
  return started;
}
