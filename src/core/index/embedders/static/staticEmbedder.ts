import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isLocalModelPath } from '../../../config/modelPath';
import { type Embedder, EmbeddingError } from '../embedder';
import { fetchModelFiles, type ModelFetchOptions } from './modelFiles';
import { loadStaticModel, type StaticModel } from './staticModel';

/** The files of a model2vec model (config.json says whether to normalize and marks the format). */
export const STATIC_MODEL_FILES = ['config.json', 'tokenizer.json', 'model.safetensors'] as const;

export interface StaticEmbedderOptions extends ModelFetchOptions {
  providerType: string;
  /** A Hub model id (fetched into cacheDir) or an absolute local folder path. */
  model: string;
}

/**
 * local_cpu's default: a model2vec static embedding model (a token → vector table, mean-pooled),
 * computed in plain JavaScript — no onnxruntime, no model session, ~1 ms per chunk. Loaded on the
 * first call, from a local folder or fetched into the model cache.
 */
export class StaticEmbedder implements Embedder {
  readonly providerType: string;
  readonly model: string;
  private loaded?: Promise<StaticModel>;

  constructor(private readonly options: StaticEmbedderOptions) {
    this.providerType = options.providerType;
    this.model = options.model;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const model = await (this.loaded ??= this.load().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    }));
    return texts.map((text) => model.embed(text));
  }

  private async load(): Promise<StaticModel> {
    const { model } = this.options;
    if (isLocalModelPath(model)) {
      if (!existsSync(model)) {
        throw new EmbeddingError('embedding.model_missing', `The embedding model folder ${model} does not exist; set [embedding].model to a folder holding the model (tokenizer.json and model.safetensors for a model2vec model).`);
      }
      return loadStaticModel(model);
    }
    return loadStaticModel(await fetchModelFiles(model, STATIC_MODEL_FILES, this.options));
  }
}

/** Hub organisations whose models are all model2vec: known without asking the Hub (a first run offline says what to fetch). */
const STATIC_ORGS = ['minishlab/'];

/**
 * Whether a local_cpu model is a model2vec static model rather than a transformer: a folder with a
 * model.safetensors and no onnx/ folder, or whose config.json says `model_type: model2vec`; a Hub
 * id of a known model2vec organisation, or one whose fetched config.json says so.
 */
export async function isStaticModel(model: string, options: ModelFetchOptions): Promise<boolean> {
  if (isLocalModelPath(model)) {
    if (existsSync(join(model, 'onnx'))) return false;
    return existsSync(join(model, 'model.safetensors')) || (await isModel2VecConfig(join(model, 'config.json')));
  }
  if (STATIC_ORGS.some((org) => model.toLowerCase().startsWith(org))) return true;
  const cacheDir = options.cacheDir ?? (await import('@huggingface/transformers')).env.cacheDir;
  if (cacheDir && existsSync(join(cacheDir, model, 'onnx'))) return false;
  if (cacheDir && existsSync(join(cacheDir, model, 'config.json'))) return isModel2VecConfig(join(cacheDir, model, 'config.json'));
  // Neither kind is cached: the model's config.json says (a Hub that cannot be reached leaves it to transformers.js, which says so).
  try {
    return await isModel2VecConfig(join(await fetchModelFiles(model, ['config.json'], options), 'config.json'));
  } catch {
    return false;
  }
}

async function isModel2VecConfig(file: string): Promise<boolean> {
  try {
    const config = JSON.parse(await readFile(file, 'utf8')) as { model_type?: unknown; architectures?: unknown };
    return config.model_type === 'model2vec' || (Array.isArray(config.architectures) && config.architectures.includes('StaticModel'));
  } catch {
    return false;
  }
}
