import { type Embedder, EmbeddingError, normalize } from './embedder';

/** local_gpu_b: a GGUF embedding model through node-llama-cpp (optional; imported only when configured). */
export class LlamaCppEmbedder implements Embedder {
  readonly providerType = 'local_gpu_b';
  private context?: Promise<{ getEmbeddingFor(text: string): Promise<{ vector: readonly number[] }> }>;
  constructor(readonly model: string) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const ctx = await (this.context ??= this.load());
    const out: Float32Array[] = [];
    for (const text of texts) out.push(normalize((await ctx.getEmbeddingFor(text)).vector));
    return out;
  }

  private async load() {
    let mod: {
      getLlama(options?: { gpu?: string }): Promise<{
        loadModel(o: { modelPath: string; gpuLayers?: string | number }): Promise<{
          createEmbeddingContext(): Promise<{ getEmbeddingFor(text: string): Promise<{ vector: readonly number[] }> }>;
        }>;
      }>;
    };
    try {
      const name = 'node-llama-cpp';
      mod = await import(name);
    } catch (error) {
      throw new EmbeddingError('embedding.package_missing', 'Embedding provider local_gpu_b needs node-llama-cpp: run `npm install node-llama-cpp` in the extension folder (or globally for the CLI).', undefined, { cause: error });
    }
    const llama = await mod.getLlama();
    const model = await llama.loadModel({ modelPath: this.model, gpuLayers: 'auto' });
    return model.createEmbeddingContext();
  }
}
