import type { QueryEmbeddingWorker } from '../../core/index/embedders/queryEmbedding';
import type { StartedQueryWorker } from '../../core/index/embedders/queryWorkerThread';
import { searchEmbedsQuery } from './searchEmbedsQuery';

/**
 * Started by the dispatcher before `hearth search` loads its code: for a search that embeds the
 * query (hybrid, semantic), the worker thread that will embed it, so the embedder's SDK loads on
 * another core while this one loads the command, reads the config and opens the index. dist/cli.js
 * starts the thread earlier still (`started`). Unused (a local model, an error first), it is ended
 * by the command or when the process exits.
 */
export async function startSearchWorker(argv: string[], started?: StartedQueryWorker): Promise<QueryEmbeddingWorker | undefined> {
  if (!started && !searchEmbedsQuery(argv)) return undefined;
  const { QueryEmbeddingWorker } = await import('../../core/index/embedders/queryEmbedding');
  return started ? new QueryEmbeddingWorker(() => started) : new QueryEmbeddingWorker();
}
