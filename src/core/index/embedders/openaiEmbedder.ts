import OpenAI from 'openai';
import { nodeHttpFetch } from '../../net/nodeHttpFetch';
import type { Redactor } from '../../logging/redactor';
import { areEmbeddings, causeDetail, type Embedder, EmbeddingError, normalize } from './embedder';

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
    let res: OpenAI.CreateEmbeddingResponse;
    try {
      res = await this.client.embeddings.create({ model: this.model, input: texts, encoding_format: 'float' }, { signal });
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 401) throw new EmbeddingError('embedding.auth', `${this.providerType}: the API key was refused (401).`, status, { cause: error });
      if (status === 404) throw new EmbeddingError('embedding.model_not_found', `${this.providerType}: model "${this.model}" not found (404).`, status, { cause: error });
      const detail = status ? '' : causeDetail(error);
      throw new EmbeddingError('embedding.request_failed', `${this.providerType} embeddings failed${status ? ` (HTTP ${status})` : ''}: ${this.redactor.redactForeign(String((error as Error)?.message ?? error) + detail)}`, status, { cause: error });
    }
    // The SDK does not check the answer's shape: an empty list or a string would become no vector or NaNs.
    const items: { index?: unknown; embedding?: unknown }[] = Array.isArray(res?.data) ? (res.data as unknown[]).map((d) => (typeof d === 'object' && d !== null ? d : {})) : [];
    const vectors = items.sort((a, b) => Number(a.index) - Number(b.index)).map((d) => d.embedding);
    if (!areEmbeddings(vectors, texts.length)) throw new EmbeddingError('embedding.bad_response', `${this.providerType}: the embeddings answer is not ${texts.length} list${texts.length === 1 ? '' : 's'} of numbers (got ${items.length} items).`);
    return vectors.map(normalize);
  }
}
