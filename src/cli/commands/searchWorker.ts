import { parseArgs } from 'node:util';
import type { QueryEmbeddingWorker } from '../../core/index/embedders/queryEmbedding';

/**
 * Started by the dispatcher before `hearth search` loads its code: for a search that embeds the
 * query (hybrid, semantic), the worker thread that will embed it, so the embedder's SDK loads on
 * another core while this one loads the command, reads the config and opens the index. Unused
 * (a local model, an error first), it is ended by the command or when the process exits.
 */
export async function startSearchWorker(argv: string[]): Promise<QueryEmbeddingWorker | undefined> {
  const { values } = parseArgs({ args: argv, options: { mode: { type: 'string', short: 'm' }, help: { type: 'boolean', short: 'h' } }, strict: false, allowPositionals: true });
  const mode = values.mode ?? 'hybrid';
  if (values.help || (mode !== 'hybrid' && mode !== 'semantic')) return undefined;
  const { QueryEmbeddingWorker } = await import('../../core/index/embedders/queryEmbedding');
  return new QueryEmbeddingWorker();
}
