import { HearthError } from '../../errors';

/** Turns texts into vectors; one implementation per `[embedding].provider` type. */
export interface Embedder {
  readonly providerType: string;
  readonly model: string;
  /** One call to the backend for these texts (the batching wrapper sizes them). */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  dispose?(): Promise<void>;
}

/** Why embedding failed; shown with the index report and `hearth index --json`. */
export type EmbeddingErrorCode =
  | 'embedding.auth'
  | 'embedding.bad_response'
  | 'embedding.config'
  | 'embedding.disposed'
  /** Anything else that failed inside the embedding worker. */
  | 'embedding.failed'
  | 'embedding.missing_key'
  | 'embedding.model_missing'
  /** A model's files are there but broken: truncated, sizes that disagree, NaN in the weights. */
  | 'embedding.model_invalid'
  | 'embedding.model_unavailable'
  | 'embedding.model_not_found'
  | 'embedding.package_missing'
  | 'embedding.request_failed'
  | 'embedding.runner_unreachable'
  | 'embedding.worker_failed';

export class EmbeddingError extends HearthError {
  constructor(override readonly code: EmbeddingErrorCode, message: string, readonly status?: number, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * ` (the innermost cause's words)` for a request that never got an answer: what the socket said
 * (`connect ECONNREFUSED …`, `the server sent nothing for 300 s`) behind an SDK's bare
 * "Connection error."; empty when there is no deeper cause.
 */
export function causeDetail(error: unknown): string {
  let inner = error;
  for (let depth = 0; depth < 8 && inner instanceof Error && inner.cause instanceof Error; depth++) inner = inner.cause;
  return inner !== error && inner instanceof Error && inner.message ? ` (${inner.message})` : '';
}

/** Whether a provider's answer is `count` non-empty lists of finite numbers (a broken or hostile one may send anything). */
export function areEmbeddings(value: unknown, count: number): value is number[][] {
  return Array.isArray(value) && value.length === count && value.every((v) => Array.isArray(v) && v.length > 0 && v.every(Number.isFinite));
}

/** Scales to unit length so cosine similarity is a dot product (stores expect normalized vectors). */
export function normalize(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i] * out[i];
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < out.length; i++) out[i] /= norm;
  return out;
}
