import type { Embedder } from './embedder';
import { isStaticModel, StaticEmbedder } from './static/staticEmbedder';
import { TransformersEmbedder, type TransformersOptions } from './transformersEmbedder';

/**
 * local_cpu / local_gpu_a in the calling thread (the embedding worker, or a test's own thread): the
 * model's files decide on first use whether it is a model2vec static model (local_cpu's default,
 * plain JavaScript) or a transformer (transformers.js on onnxruntime).
 */
export class LocalModelEmbedder implements Embedder {
  readonly providerType: string;
  readonly model: string;
  private inner?: Promise<Embedder>;

  constructor(private readonly options: TransformersOptions) {
    this.providerType = options.providerType;
    this.model = options.model;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const inner = await (this.inner ??= this.pick().catch((error: unknown) => {
      this.inner = undefined;
      throw error;
    }));
    return inner.embed(texts, signal);
  }

  async dispose(): Promise<void> {
    const inner = await this.inner?.catch(() => undefined);
    await inner?.dispose?.();
  }

  private async pick(): Promise<Embedder> {
    const { providerType, model, cacheDir, remoteHost, onProgress } = this.options;
    const fetching = { ...(cacheDir ? { cacheDir } : {}), ...(remoteHost ? { remoteHost } : {}), ...(onProgress ? { onProgress } : {}) };
    if (providerType === 'local_cpu' && (await isStaticModel(model, fetching))) return new StaticEmbedder({ providerType, model, ...fetching });
    return new TransformersEmbedder(this.options);
  }
}
