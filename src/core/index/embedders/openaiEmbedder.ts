import OpenAI from 'openai';
import { nodeHttpFetch } from '../../net/nodeHttpFetch';
import type { Redactor } from '../../logging/redactor';
import { type Embedder, EmbeddingError, normalize } from './embedder';

/** cloud_a (OpenAI) and cloud_b (any OpenAI-compatible /embeddings endpoint). */
export class OpenAiEmbedder implements Embedder {
  private readonly client: OpenAI;
  constructor(
    readonly providerType: string,
    readonly model: string,
    baseURL: string,
    apiKey: string | undefined,
    /** Knows the key: a backend echoing it in an error (`Bearer <key>`) must not put it in a message. */
    private readonly redactor: Redactor,
  ) {
    // maxRetries 0: the batching wrapper owns retries, so attempts are not multiplied.
    this.client = new OpenAI({ baseURL, apiKey: apiKey ?? 'none', maxRetries: 0, fetch: nodeHttpFetch });
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    try {
      const res = await this.client.embeddings.create({ model: this.model, input: texts, encoding_format: 'float' }, { signal });
      return [...res.data].sort((a, b) => a.index - b.index).map((d) => normalize(d.embedding));
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 401) throw new EmbeddingError('embedding.auth', `${this.providerType}: the API key was refused (401).`, status, { cause: error });
      if (status === 404) throw new EmbeddingError('embedding.model_not_found', `${this.providerType}: model "${this.model}" not found (404).`, status, { cause: error });
      throw new EmbeddingError('embedding.request_failed', `${this.providerType} embeddings failed${status ? ` (HTTP ${status})` : ''}: ${this.redactor.redactForeign(String((error as Error)?.message ?? error))}`, status, { cause: error });
    }
  }
}
