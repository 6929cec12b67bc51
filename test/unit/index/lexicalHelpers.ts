import { EmbeddingSchema, ProcessingSchema } from '../../../src/core/config/schema';
import type { Logger } from '../../../src/core/host';
import { silentLogger } from '../../../src/core/host';
import { KilnIndex } from '../../../src/core/index/kilnIndex';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

/** A KilnIndex embedding through the OpenAI wire format against the eval's hashed bag-of-words server. */
export function evalIndex(kilnRoot: string, apiUrl: string, log: Logger = silentLogger): KilnIndex {
  return new KilnIndex({
    kilnRoot,
    embedding: EmbeddingSchema.parse({ provider: 'cloud_b', api_url: apiUrl, model: 'hashed-bow-256' }),
    processing: ProcessingSchema.parse({}),
    embedderDeps: { env: {} },
    log,
  });
}

/** A logger that keeps warnings (the lexical file's damage is said there). */
export function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return Object.assign(
    sinkLogger((level, message) => void (level === 'warn' && warnings.push(message))),
    { warnings },
  );
}
