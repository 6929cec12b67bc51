import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as Tf from '@huggingface/transformers';
import { isLocalModelPath } from '../../config/modelPath';
import { tokenBudgetBatches } from './batching';
import { type Embedder, EmbeddingError } from './embedder';
import { modelUnavailableError } from './modelUnavailable';

export type TransformersDevice = 'cpu' | 'cuda' | 'dml';

export interface TransformersOptions {
  providerType: 'local_cpu' | 'local_gpu_a';
  /** A Hub model id (fetched into cacheDir) or an absolute local folder path. */
  model: string;
  cacheDir?: string;
  device?: TransformersDevice;
  /** CPU threads of the model session (default: onnxruntime's own choice, all cores). */
  threads?: number;
  /** Where Hub models are fetched from (a mirror; tests point it at a closed port). */
  remoteHost?: string;
  /** Download progress of a Hub model, as a short message (e.g. "Downloading onnx/model.onnx (40%)"). */
  onProgress?: (message: string) => void;
}

type Transformers = typeof Tf;

type Extractor = ((texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>) & {
  dispose?: () => Promise<void>;
  tokenizer?: { encode(text: string): number[]; model_max_length?: number };
};

/**
 * local_cpu / local_gpu_a, in the calling thread: transformers.js feature extraction with mean
 * pooling and normalization. The editor and the CLI run it inside the embedding worker
 * (workerEmbedder.ts), never on the extension host's main thread. The package is imported on first
 * use (it is large); a local folder is used as is and a Hub id is fetched into the cache.
 */
export class TransformersEmbedder implements Embedder {
  readonly providerType: string;
  readonly model: string;
  private extractor?: Promise<Extractor>;
  constructor(private readonly options: TransformersOptions) {
    this.providerType = options.providerType;
    this.model = options.model;
  }

  /**
   * The texts' vectors, in their order. A call is padded to its longest text, so the texts are
   * counted by the model's own tokenizer and run in groups of similar length, each padded at most
   * 1.1× its real tokens (the caller's batches are formed by an estimate; this makes the bound exact).
   */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const extract = await (this.extractor ??= this.load());
    if (texts.length === 0) return [];
    const tokenizer = extract.tokenizer;
    const max = tokenizer?.model_max_length && tokenizer.model_max_length < 100_000 ? tokenizer.model_max_length : 512;
    const lengths = tokenizer && texts.length > 1 ? texts.map((t) => Math.min(max, tokenizer.encode(t).length)) : undefined;
    const groups = lengths ? tokenBudgetBatches(lengths, Infinity, texts.length) : [texts.map((_, i) => i)];
    const vectors: Float32Array[] = new Array(texts.length);
    for (const group of groups) {
      const out = await extract(group.map((i) => texts[i]), { pooling: 'mean', normalize: true });
      const dim = out.dims[out.dims.length - 1];
      group.forEach((at, i) => (vectors[at] = out.data.slice(i * dim, (i + 1) * dim)));
    }
    return vectors;
  }

  async dispose(): Promise<void> {
    const extractor = await this.extractor?.catch(() => undefined);
    await extractor?.dispose?.();
  }

  private async load(): Promise<Extractor> {
    const { device = 'cpu', cacheDir } = this.options;
    const { model, dtype: chosen } = splitDtype(this.options.model);
    const local = isLocalModelPath(model);
    if (local && !existsSync(model)) {
      throw new EmbeddingError('embedding.model_missing', `The embedding model folder ${model} does not exist; set [embedding].model to a folder holding the model (config.json, tokenizer.json, onnx/model.onnx).`);
    }
    const tf = await import('@huggingface/transformers');
    tf.env.allowLocalModels = true;
    tf.env.allowRemoteModels = !local;
    // A local model is addressed by its absolute path; a Hub id resolves under the cache.
    tf.env.localModelPath = local ? '' : (cacheDir ?? tf.env.localModelPath);
    if (cacheDir) tf.env.cacheDir = cacheDir;
    if (this.options.remoteHost) tf.env.remoteHost = this.options.remoteHost;
    // int8 on the CPU when the model ships it (onnx/model_quantized.onnx): 1.7–1.8× the float32
    // throughput at bge-small's shape (issue 31). A Hub model is asked for it and, lacking it, loaded in float32.
    const dtype = chosen ?? (device !== 'cpu' ? 'fp32' : local ? (existsSync(join(model, 'onnx', 'model_quantized.onnx')) ? 'q8' : 'fp32') : 'q8');
    try {
      return await this.pipeline(tf, model, dtype, local);
    } catch (error) {
      if (chosen || dtype === 'fp32') throw error;
      return this.pipeline(tf, model, 'fp32', local);
    }
  }

  private async pipeline(tf: Transformers, model: string, dtype: string, local: boolean): Promise<Extractor> {
    const { device = 'cpu', onProgress } = this.options;
    try {
      const pipe = await tf.pipeline('feature-extraction', model, {
        device,
        dtype: dtype as 'fp32',
        ...(this.options.threads ? { session_options: { intraOpNumThreads: this.options.threads } } : {}),
        progress_callback: (p: { status: string; file?: string; progress?: number }) => {
          if (p.status === 'progress' && p.progress !== undefined) onProgress?.(`${local ? 'Loading' : 'Downloading'} ${p.file ?? 'model'} (${Math.round(p.progress)}%)`);
        },
      });
      return pipe as unknown as Extractor;
    } catch (error) {
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      if (!local) throw modelUnavailableError(model, why, ['config.json', 'tokenizer.json', 'onnx/model.onnx'], error);
      throw new EmbeddingError('embedding.model_unavailable', `Could not load the embedding model from ${model} on ${device}: ${why}`, undefined, { cause: error });
    }
  }
}

const DTYPE_SUFFIX = /@(fp32|fp16|q8|int8|uint8|q4|q4f16|bnb4)$/;

/**
 * `model = "Xenova/bge-small-en-v1.5@fp32"`: the weights to load, named after the model (no
 * `[embedding]` key for it exists in the reference); without a suffix, int8 where shipped. The
 * suffix is part of the model as the index records it, so a switch re-embeds.
 */
export function splitDtype(model: string): { model: string; dtype?: string } {
  const m = DTYPE_SUFFIX.exec(model);
  return m ? { model: model.slice(0, m.index), dtype: m[1] } : { model };
}
