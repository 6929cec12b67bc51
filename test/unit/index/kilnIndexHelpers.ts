import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EmbeddingSchema, ProcessingSchema } from '../../../src/core/config/schema';
import { silentLogger } from '../../../src/core/host';
import { KilnIndex } from '../../../src/core/index/kilnIndex';
import { tinyModelDir } from './tinyModel';

export function makeKiln(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-kiln-'));
  writeNotes(root, files);
  return root;
}

export function writeNotes(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export function removeKiln(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** A KilnIndex on the tiny generated model, transformers.js in this thread; counts embedder creations. */
export function tinyIndex(kilnRoot: string, processing: Record<string, unknown> = {}, embedding: Record<string, unknown> = {}): KilnIndex & { created: number } {
  const index = new KilnIndex({
    kilnRoot,
    embedding: EmbeddingSchema.parse({ provider: 'local_cpu', model: tinyModelDir(), ...embedding }),
    processing: ProcessingSchema.parse(processing),
    embedderDeps: { env: {}, inProcess: true },
    log: silentLogger,
  }) as KilnIndex & { created: number };
  index.created = 0;
  const create = index.setup.create;
  index.setup.create = async () => {
    index.created++;
    return create();
  };
  return index;
}
