import { causeDetail, EmbeddingError } from './embedder';

/**
 * A Hub model that could not be fetched (offline, a proxy, the Hub down): what failed, that search
 * meanwhile matches words only, and the two ways out — a local copy of the model, or another
 * `[embedding]` provider. The index's status, Check Index and `hearth index` show this message.
 */
export function modelUnavailableError(model: string, why: string, files: readonly string[], cause: unknown): EmbeddingError {
  // fetch's own "fetch failed" says nothing; the socket's words (getaddrinfo ENOTFOUND …) do.
  return new EmbeddingError(
    'embedding.model_unavailable',
    `Could not fetch the embedding model "${model}" (${why}${causeDetail(cause)}); search matches words only until it is available. ` +
      `Without internet access, copy the model folder (${files.join(', ')}) to this machine and set [embedding].model to that folder's path, ` +
      'or point [embedding] at another provider (provider = "local_runner" for a local runner\'s embedding model, or a hosted one with its key) in the global or workspace config.',
    undefined,
    { cause },
  );
}
