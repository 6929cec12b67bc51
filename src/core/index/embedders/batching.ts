import type { Logger } from '../../host';
import { type Embedder, EmbeddingError } from './embedder';

export interface BatchingOptions {
  batchSize: number;
  /**
   * Local models (which pad a batch to its longest text): texts are sorted by length and batched by
   * this many (estimated) tokens, each batch padded at most 1.1× its real tokens, instead of
   * `batchSize` texts in their given order (2.2× the real tokens on real notes, issue 31).
   */
  tokenBudget?: number;
  maxConcurrent: number;
  /** Retries on rate limits (429) and 5xx for hosted providers; 0 for local ones. */
  retries?: number;
  baseDelayMs?: number;
  log?: Logger;
}

/**
 * Embeds any number of texts: batches of `batchSize` texts (or by `tokenBudget`), at most
 * `maxConcurrent` calls in flight, rate-limited calls retried with exponential backoff (with
 * jitter) — results in input order.
 */
export async function embedAll(embedder: Embedder, texts: string[], options: BatchingOptions, signal?: AbortSignal, onBatch?: (done: number) => void): Promise<Float32Array[]> {
  const out: Float32Array[] = new Array(texts.length);
  const batches = options.tokenBudget ? tokenBudgetBatches(texts.map(estimateTokens), options.tokenBudget, options.batchSize * 8) : fixedBatches(texts.length, options.batchSize);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < batches.length) {
      signal?.throwIfAborted();
      const batch = batches[next++];
      const slice = batch.map((i) => texts[i]);
      const vectors = await withRetry(() => withCallSignal(signal, (callSignal) => embedder.embed(slice, callSignal)), options, signal);
      if (vectors.length !== slice.length) {
        throw new EmbeddingError('embedding.bad_response', `${embedder.providerType} returned ${vectors.length} vectors for ${slice.length} texts.`);
      }
      vectors.forEach((v, i) => (out[batch[i]] = v));
      done += slice.length;
      onBatch?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.maxConcurrent, batches.length) }, worker));
  return out;
}

function fixedBatches(count: number, size: number): number[][] {
  const batches: number[][] = [];
  for (let start = 0; start < count; start += size) batches.push(Array.from({ length: Math.min(size, count - start) }, (_, i) => start + i));
  return batches;
}

/** Padding a batch may add over its real tokens. */
const MAX_PADDING = 1.1;

/**
 * The texts' indexes in batches, longest first: each batch holds texts of similar length, padded
 * to its first (longest) at most `MAX_PADDING` × its real tokens and `budget` tokens in all (one
 * text longer than the budget is a batch of its own), at most `maxTexts` texts.
 */
export function tokenBudgetBatches(lengths: readonly number[], budget: number, maxTexts: number): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b] - lengths[a] || a - b);
  const batches: number[][] = [];
  let batch: number[] = [];
  let longest = 0;
  let real = 0;
  for (const i of order) {
    const n = batch.length + 1;
    if (batch.length > 0 && (n > maxTexts || n * longest > budget || n * longest > MAX_PADDING * (real + lengths[i]))) {
      batches.push(batch);
      batch = [];
    }
    if (batch.length === 0) {
      longest = lengths[i];
      real = 0;
    }
    batch.push(i);
    real += lengths[i];
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

// A BERT tokenizer's pre-tokens (words, numbers, each punctuation mark): close to its token count
// for prose, without loading a tokenizer in this thread (the model's lives in the embedding worker).
const PRE_TOKENS = /[\p{L}\p{M}]+|\p{N}+|[^\s\p{L}\p{M}\p{N}]/gu;

/** A text's tokens as a WordPiece model counts them, estimated: pre-tokens, long words as several pieces, plus [CLS] and [SEP]. */
export function estimateTokens(text: string): number {
  let tokens = 2;
  PRE_TOKENS.lastIndex = 0;
  for (let m = PRE_TOKENS.exec(text); m !== null; m = PRE_TOKENS.exec(text)) tokens += m[0].length > 8 ? Math.ceil(m[0].length / 6) : 1;
  return Math.min(tokens, 512);
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
