import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { EmbeddingError } from '../embedder';
import { modelUnavailableError } from '../modelUnavailable';

export interface ModelFetchOptions {
  /** The model cache (the one transformers.js fetches into); transformers.js's default when unset. */
  cacheDir?: string;
  /** Where Hub models are fetched from (a mirror; tests point it at a local server). */
  remoteHost?: string;
  onProgress?: (message: string) => void;
}

const HUB = 'https://huggingface.co/';

/**
 * The folder holding `files` of a Hub model, fetching what is missing into the model cache the way
 * transformers.js lays it out (`<cache>/<org>/<name>/<file>`, from `<host>/<id>/resolve/main/<file>`),
 * so both kinds of local model share one cache. Each file is written beside its place and renamed
 * when complete: an interrupted download never leaves a truncated file that looks fetched.
 */
export async function fetchModelFiles(model: string, files: readonly string[], options: ModelFetchOptions): Promise<string> {
  const cacheDir = options.cacheDir ?? (await import('@huggingface/transformers')).env.cacheDir;
  if (!cacheDir) throw new EmbeddingError('embedding.config', 'No model cache folder is known to fetch the embedding model into.');
  const folder = join(cacheDir, model);
  for (const file of files) {
    const target = join(folder, file);
    if (existsSync(target)) continue;
    const url = `${(options.remoteHost ?? HUB).replace(/\/?$/, '/')}${model}/resolve/main/${file}`;
    try {
      await download(url, target, file, options.onProgress);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw modelUnavailableError(model, `${file}: ${why}`, files, error);
    }
  }
  return folder;
}

async function download(url: string, target: string, file: string, onProgress?: (message: string) => void): Promise<void> {
  const response = await fetch(url, { redirect: 'follow' });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length') ?? 0);
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  let received = 0;
  let shown = -1;
  const body = Readable.fromWeb(response.body as ReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    received += chunk.length;
    const percent = total > 0 ? Math.floor((received / total) * 100) : -1;
    if (percent !== shown && percent % 5 === 0) {
      shown = percent;
      onProgress?.(`Downloading ${file} (${percent}%)`);
    }
  });
  try {
    await pipeline(body, createWriteStream(partial));
    if (total > 0 && received !== total) throw new Error(`received ${received} of ${total} bytes`);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
