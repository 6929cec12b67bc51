import type { Logger } from '../../host';
import { type Embedder, EmbeddingError } from './embedder';

export interface BatchingOptions {
  batchSize: number;
  maxConcurrent: number;
  /** Retries on rate limits (429) and 5xx for hosted providers; 0 for local ones. */
  retries?: number;
  baseDelayMs?: number;
  log?: Logger;
}

/**
 * Embeds any number of texts: `batchSize` texts per call, at most `maxConcurrent` calls in flight,
 * rate-limited calls retried with exponential backoff (with jitter) — results in input order.
 */
export async function embedAll(embedder: Embedder, texts: string[], options: BatchingOptions, signal?: AbortSignal, onBatch?: (done: number) => void): Promise<Float32Array[]> {
  const out: Float32Array[] = new Array(texts.length);
  const batches: number[] = [];
  for (let i = 0; i < texts.length; i += options.batchSize) batches.push(i);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < batches.length) {
      signal?.throwIfAborted();
      const start = batches[next++];
      const slice = texts.slice(start, start + options.batchSize);
      const vectors = await withRetry(() => withCallSignal(signal, (callSignal) => embedder.embed(slice, callSignal)), options, signal);
      if (vectors.length !== slice.length) {
        throw new EmbeddingError('embedding.bad_response', `${embedder.providerType} returned ${vectors.length} vectors for ${slice.length} texts.`);
      }
      vectors.forEach((v, i) => (out[start + i] = v));
      done += slice.length;
      onBatch?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.maxConcurrent, batches.length) }, worker));
  return out;
}

async function withRetry<T>(call: () => Promise<T>, options: BatchingOptions, signal?: AbortSignal): Promise<T> {
  const retries = options.retries ?? 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const status = error instanceof EmbeddingError ? error.status : undefined;
      const retryable = status === 429 || (status !== undefined && status >= 500);
      if (!retryable || attempt >= retries) throw error;
      const delay = (options.baseDelayMs ?? 500) * 2 ** attempt * (0.75 + Math.random() / 2);
      options.log?.child('embedding').warn(`HTTP ${status}, retrying in ${Math.round(delay)} ms (attempt ${attempt + 1} of ${retries})`);
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal!.reason);
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, delay);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}

/**
 * Runs one provider call with a signal of its own, linked to the run's. fetch (undici) leaves its
 * abort listener on the signal it is given until the request is garbage-collected, so a run-long
 * signal handed to every call collected one listener per batch (`hearth index` printed a
 * MaxListenersExceededWarning); here the run's signal holds one listener per call in flight, removed
 * when the call settles.
 */
export async function withCallSignal<T>(outer: AbortSignal | undefined, call: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!outer) return call(undefined);
  outer.throwIfAborted();
  const own = new AbortController();
  const onAbort = () => own.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  try {
    return await call(own.signal);
  } finally {
    outer.removeEventListener('abort', onAbort);
  }
}
