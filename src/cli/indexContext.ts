import { join } from 'node:path';
import { userCacheDir } from '../core/config/locations';
import type { QueryEmbeddingWorker } from '../core/index/embedders/queryEmbedding';
import { KilnIndex } from '../core/index/kilnIndex';
import type { CliContext } from './cliContext';
import type { CliIo } from './cliIo';

/** Where the CLI keeps models fetched by local_cpu (the editor uses its global storage instead). */
export function cliModelCacheDir(env: NodeJS.ProcessEnv): string {
  return join(userCacheDir(env), 'models');
}

/** The kiln's index as `hearth index` and `hearth search` use it; the caller disposes it. */
export function createCliIndex(cli: CliContext, io: CliIo, options: { queryWorker?: QueryEmbeddingWorker } = {}): KilnIndex {
  const { config } = cli.loaded;
  return new KilnIndex({
    kilnRoot: config.kiln_path ?? cli.workspaceRoot,
    embedding: config.embedding,
    processing: config.processing,
    embedderDeps: {
      env: io.env,
      secrets: cli.host.secrets,
      apiKey: cli.loaded.keys.embedding,
      redactor: cli.redactor,
      modelCacheDir: cliModelCacheDir(io.env),
      baseDir: cli.workspaceRoot,
    },
    log: cli.host.log,
    ...(options.queryWorker ? { queryWorker: options.queryWorker } : {}),
  });
}
