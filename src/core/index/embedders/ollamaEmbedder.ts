import { nodeHttpFetch } from '../../net/nodeHttpFetch';
import { scrubForeign, type Redactor } from '../../logging/redactor';
import { areEmbeddings, causeDetail, type Embedder, EmbeddingError, normalize } from './embedder';

/**
 * local_runner: Ollama's batch endpoint `/api/embed`; runners (or mocks such as aimock) without it
 * answer 404, and then the legacy one-text `/api/embeddings` is used for the rest of the session.
 */
export class OllamaEmbedder implements Embedder {
  readonly providerType = 'local_runner';
  private legacy = false;
  constructor(
    readonly model: string,
    private readonly host: string,
    private readonly redactor?: Redactor,
  ) {}

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (!this.legacy) {
      const res = await this.post('/api/embed', { model: this.model, input: texts }, signal);
      if (res.status !== 404 || (await this.isModelMissing(res))) {
        const body = (await this.check(res)) as { embeddings?: unknown };
        if (!areEmbeddings(body.embeddings, texts.length)) throw new EmbeddingError('embedding.bad_response', `The runner at ${this.host} answered /api/embed without an "embeddings" list of ${texts.length} lists of numbers.`);
        return body.embeddings.map(normalize);
      }
      this.legacy = true;
    }
    const out: Float32Array[] = [];
    for (const text of texts) {
      const body = (await this.check(await this.post('/api/embeddings', { model: this.model, prompt: text }, signal))) as { embedding?: unknown };
      if (!areEmbeddings([body.embedding], 1)) throw new EmbeddingError('embedding.bad_response', `The runner at ${this.host} answered /api/embeddings without an "embedding" list of numbers.`);
      out.push(normalize(body.embedding as number[]));
    }
    return out;
  }

  private async post(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    try {
      return await nodeHttpFetch(new URL(path, this.host), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new EmbeddingError('embedding.runner_unreachable', `The local runner at ${this.host} is not reachable${this.scrub(causeDetail(error))}; start it (ollama serve) or set [embedding].api_url.`, undefined, { cause: error });
    }
  }

  private async isModelMissing(res: Response): Promise<boolean> {
    const text = await res.clone().text();
    return /model/i.test(text) && /not found/i.test(text);
  }

  /** The runner's own text (a proxy in front of it may echo credentials) is scrubbed before it is wrapped. */
  private scrub(text: string): string {
    return this.redactor ? this.redactor.redactForeign(text) : scrubForeign(text);
  }

  private async check(res: Response): Promise<unknown> {
    if (res.ok) return res.json();
    const text = await res.text();
    if (res.status === 404) throw new EmbeddingError('embedding.model_not_found', `Embedding model "${this.model}" not found on the runner; run \`ollama pull ${this.model}\`.`, 404);
    throw new EmbeddingError('embedding.request_failed', `Runner embeddings failed (HTTP ${res.status}): ${this.scrub(text).slice(0, 200)}`, res.status);
  }
}
