import { availableParallelism, homedir } from 'node:os';
import { resolve } from 'node:path';
import type { EmbeddingConfig } from '../../config/schema';
import { canonicalEmbeddingType, EMBEDDING_PROVIDER_DEFAULTS, PROVIDER_ENV } from '../../config/providerTypes';
import type { Progress, SecretStore } from '../../host';
import { Redactor } from '../../logging/redactor';
import type { BatchingOptions } from './batching';
import { type Embedder, EmbeddingError } from './embedder';
import { isLocalModelPath } from '../../config/modelPath';

/** A local model's token budget per batch is `batch_size` × this (half a BERT's 512-token window per text). */
const TOKENS_PER_BATCH_SLOT = 256;

export interface EmbedderDeps {
  env: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  /** The cloud_a / cloud_b key, resolved when the config loaded (`LoadedConfig.keys.embedding`); no variable is read here. */
  apiKey?: string;
  /** Where local_cpu keeps fetched models (the extension's global storage; the user cache dir in the CLI). */
  modelCacheDir?: string;
  /** Relative model folders (`./models/x`) resolve against this (the workspace root). */
  baseDir?: string;
  /** Model download progress (local_cpu / local_gpu_a fetching a Hub model). */
  progress?: Progress;
  /** Keys resolved here are fed to it; the embedders scrub the backends' error text with it. */
  redactor?: Redactor;
  /** Tests: run transformers.js in this thread instead of a worker. */
  inProcess?: boolean;
  /**
   * `[processing].parallel_workers`: local_cpu embeds with this many worker threads (each its own
   * model session, the CPU cores shared between them) and, unless `max_concurrent` is set, keeps
   * that many batches in flight. Default 1.
   */
  workers?: number;
}

export interface EmbedderSetup {
  /** Canonical provider type, e.g. 'local_cpu'. */
  providerType: string;
  /** The model as the index header records it (a local folder as its absolute path). */
  model: string;
  /** Makes the embedder (nothing loads before the first embed call). */
  create(): Promise<Embedder>;
  batching: BatchingOptions;
  /**
   * The embedder as plain data when it is a web service (cloud_a, cloud_b, local_runner): enough
   * to make the same embedder in a worker thread (queryEmbedWorker.ts). Undefined for local models.
   */
  remote?: RemoteEmbedderSpec;
}

/** A web-service embedder as data (structured-clonable): `createRemoteEmbedder` makes it anywhere. */
export type RemoteEmbedderSpec =
  | { kind: 'openai'; providerType: 'cloud_a' | 'cloud_b'; model: string; baseURL: string; apiKey?: string }
  | { kind: 'runner'; model: string; host: string };

/** The embedder a spec describes; `redactor` scrubs the backend's error text (it learns the key here). */
export async function createRemoteEmbedder(spec: RemoteEmbedderSpec, redactor: Redactor): Promise<Embedder> {
  if (spec.kind === 'runner') {
    const { OllamaEmbedder } = await import('./ollamaEmbedder');
    return new OllamaEmbedder(spec.model, spec.host, redactor);
  }
  // The real service needs a key (checked here, so the query worker says so too); a custom api_url (a proxy, a local server) may not.
  if (spec.providerType === 'cloud_a' && !spec.apiKey && spec.baseURL === EMBEDDING_PROVIDER_DEFAULTS.cloud_a.apiUrl) {
    const vars = PROVIDER_ENV.cloud_a;
    throw new EmbeddingError('embedding.missing_key', `Embedding provider cloud_a needs an API key: set ${vars[0]} (or ${vars[1]}).`);
  }
  redactor.add(spec.apiKey);
  const { OpenAiEmbedder } = await import('./openaiEmbedder');
  return new OpenAiEmbedder(spec.providerType, spec.model, spec.baseURL, spec.apiKey, redactor);
}

/**
 * Resolves `[embedding]` to a provider type, model and a lazy factory. Throws EmbeddingError
 * (`embedding.config`) when the section cannot work (cloud_b without api_url/model, GPU types
 * without model) — the config loader reports the same as a problem; this is the guard at use.
 */
export function embedderSetup(config: EmbeddingConfig, deps: EmbedderDeps): EmbedderSetup {
  const type = canonicalEmbeddingType(config.provider);
  const defaults = EMBEDDING_PROVIDER_DEFAULTS[type];
  let model = config.model ?? defaults.model;
  if (!model) throw new EmbeddingError('embedding.config', `[embedding] provider ${type} needs model (no default model exists for it).`);
  if (type === 'cloud_b' && !config.api_url) throw new EmbeddingError('embedding.config', '[embedding] provider cloud_b needs api_url (an OpenAI-compatible embeddings endpoint) and model.');
  if (type === 'local_cpu' || type === 'local_gpu_a' || type === 'local_gpu_b') model = resolveModelPath(model, deps.baseDir);
  const hosted = type === 'cloud_a' || type === 'cloud_b';
  const workers = type === 'local_cpu' && !deps.inProcess ? Math.max(1, deps.workers ?? 1) : 1;
  const maxConcurrent = config.max_concurrent ?? (type === 'local_cpu' ? workers : defaults.maxConcurrent);
  // transformers.js pads a batch to its longest text: local models get batches of similar length (batching.ts).
  const tokenBudget = type === 'local_cpu' || type === 'local_gpu_a' ? config.batch_size * TOKENS_PER_BATCH_SLOT : undefined;
  const batching: BatchingOptions = { batchSize: config.batch_size, maxConcurrent, retries: hosted ? 5 : 0, ...(tokenBudget ? { tokenBudget } : {}) };
  const finalModel = model;
  const create = async (): Promise<Embedder> => {
    switch (type) {
      case 'local_cpu':
      case 'local_gpu_a': {
        // CUDA on Linux, DirectML on Windows (onnxruntime-node's GPU execution providers).
        const device = type === 'local_gpu_a' ? (process.platform === 'win32' ? 'dml' : 'cuda') : 'cpu';
        const options = { providerType: type, model: finalModel, cacheDir: deps.modelCacheDir, device } as const;
        if (deps.inProcess) {
          const { LocalModelEmbedder } = await import('./localEmbedder');
          return new LocalModelEmbedder({ ...options, onProgress: (message) => deps.progress?.report({ message }) });
        }
        const { WorkerEmbedder } = await import('./workerEmbedder');
        if (workers === 1) return new WorkerEmbedder(options, deps.progress);
        // Each worker's session gets its share of the cores, so N workers do not fight over them.
        const threads = Math.max(1, Math.floor(availableParallelism() / workers));
        const { EmbedderPool } = await import('./embedderPool');
        // Only the first worker reports the model loading (they all load the same files).
        return new EmbedderPool(type, finalModel, workers, (i) => new WorkerEmbedder({ ...options, threads }, i === 0 ? deps.progress : undefined));
      }
      case 'local_gpu_b': {
        const { LlamaCppEmbedder } = await import('./llamaCppEmbedder');
        return new LlamaCppEmbedder(finalModel);
      }
      case 'local_runner':
      case 'cloud_a':
      case 'cloud_b':
        return createRemoteEmbedder(remote!, deps.redactor ?? new Redactor());
    }
  };
  const remote = remoteSpec(type, finalModel, config, deps.apiKey);
  return { providerType: type, model: finalModel, create, batching, ...(remote ? { remote } : {}) };
}

function remoteSpec(type: string, model: string, config: EmbeddingConfig, apiKey: string | undefined): RemoteEmbedderSpec | undefined {
  const defaults = EMBEDDING_PROVIDER_DEFAULTS[type as keyof typeof EMBEDDING_PROVIDER_DEFAULTS];
  if (type === 'local_runner') {
    // LOCAL_RUNNER_HOST already reached api_url when the config loaded (config/envOverrides.ts).
    const host = config.api_url ?? defaults.apiUrl!;
    return { kind: 'runner', model, host: /^https?:\/\//.test(host) ? host : `http://${host}` };
  }
  if (type === 'cloud_a' || type === 'cloud_b') return { kind: 'openai', providerType: type, model, baseURL: config.api_url ?? defaults.apiUrl!, ...(apiKey ? { apiKey } : {}) };
  return undefined;
}

function resolveModelPath(model: string, baseDir: string | undefined): string {
  if (model.startsWith('~/')) return resolve(homedir(), model.slice(2));
  if (isLocalModelPath(model)) return resolve(baseDir ?? process.cwd(), model);
  return model;
}
