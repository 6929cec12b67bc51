import { SEARCH_MODES, type SearchMode } from '../../core/index/search/searchResult';
import { QueryEmbeddingWorker } from '../../core/index/embedders/queryEmbedding';
import type { KilnIndex } from '../../core/index/kilnIndex';
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError, type CliContext } from '../cliContext';
import { createCliIndex } from '../indexContext';
import type { CliIo } from '../cliIo';
import { indexWithProgress } from './indexKiln';
import { answersOnWords } from '../../core/index/search/wordsOnlySearch';

const HELP = `Usage: hearth search "query" [--mode hybrid|semantic|text|property] [--limit N] [--chunks] [--json] [--workspace DIR]

Searches the kiln and lists notes, best first: each result is one note, pointing at its best
matching section, with its other matching sections listed under it. hybrid (default) weighs the
query's words (title and file name, headings, opening lines and body each count differently) and
their meaning (the embedding model); semantic is by meaning only; text matches a literal
(case-insensitive) or a /regex/flags line by line; property takes key=value pairs
("status=draft tags=garden") matched against the frontmatter. Scores are relevances from 0 to 1.
Before a hybrid or semantic search the index is brought up to date (only changed notes are embedded).

      --mode MODE      hybrid (default), semantic, text or property
      --limit N        at most N results (default 10)
      --chunks         one result per matching section (chunk) instead of per note
      --json           print [{path, title, heading, startLine, endLine, score, snippet, sections}]
                       (sections: [{heading, startLine, endLine, snippet, score}]; none with --chunks)
${COMMON_HELP}
`;

/** `worker`: the query's embedding worker, when the dispatcher started it (searchWorker.ts) before this code loaded. */
export async function run(argv: string[], io: CliIo, worker?: Promise<QueryEmbeddingWorker | undefined>): Promise<number> {
  try {
    return await runSearch(argv, io, worker);
  } finally {
    void worker?.then((w) => w?.dispose(), () => undefined);
  }
}

async function runSearch(argv: string[], io: CliIo, early: Promise<QueryEmbeddingWorker | undefined> | undefined): Promise<number> {
  const { values, positionals } = parseCommandLine('search', argv, { mode: { type: 'string', short: 'm' }, limit: { type: 'string', short: 'n' }, json: { type: 'boolean' }, chunks: { type: 'boolean' } }, true);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const query = positionals.join(' ').trim();
  if (!query) throw new UsageError('give a query, e.g. hearth search "meeting notes" (see hearth search --help)');
  const mode = (values.mode ?? 'hybrid') as SearchMode;
  if (!SEARCH_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${SEARCH_MODES.join(', ')} (see hearth search --help)`);
  const limit = values.limit === undefined ? 10 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive whole number (see hearth search --help)');

  // Text and property search read the folder's own notes; the other modes embed the query.
  const embeds = mode === 'hybrid' || mode === 'semantic';
  // Started before the config is read: a web-service embedder's SDK loads on another core meanwhile.
  const queryWorker = embeds ? ((await early) ?? new QueryEmbeddingWorker()) : undefined;
  let index: KilnIndex | undefined;
  try {
    const trustNeeds = embeds ? { areas: ['embedding', 'database', 'kiln'] as const } : { areas: [] };
    const cli = await createCliContext(io, values, { trustNeeds });
    cli.reportConfigProblems();
    index = createCliIndex(cli, io, { queryWorker });
    // A local model embeds in this process (or its own worker): the query worker is not needed.
    if (!index.setup.remote) void queryWorker?.dispose();
    return await searchWith(cli, index, io, query, { mode, limit, json: values.json === true, chunks: values.chunks === true });
  } finally {
    await index?.dispose();
    void queryWorker?.dispose();
  }
}

interface SearchOptions {
  mode: SearchMode;
  limit: number;
  json: boolean;
  chunks: boolean;
}

async function searchWith(cli: CliContext, index: KilnIndex, io: CliIo, query: string, options: SearchOptions): Promise<number> {
  const { mode, limit } = options;
  // Ends the query's embedding when the command ends first (the index run failed): a provider slow to
  // answer would otherwise keep the process alive after the error was printed.
  const queryEmbedding = new AbortController();
  try {
    let queryVector: Promise<Float32Array> | undefined;
    if (mode === 'hybrid' || mode === 'semantic') {
      // The query is embedded while the index is brought up to date; a failure is reported by search.
      queryVector = index.embedQuery(query, queryEmbedding.signal);
      queryVector.catch(() => undefined);
      // A model that cannot be fetched (offline) or a runner that is down: search answers on words, saying so below.
      const report = await indexWithProgress(cli, index).catch((error: unknown) => {
        if (!answersOnWords(error) || options.chunks) throw error;
        return undefined;
      });
      if (report && report.embedded > 0) cli.host.log.child('index').info(`embedded ${report.embedded} chunks of ${report.embeddedNotes} notes`);
    }
    const results = await index.search(query, { mode, limit, chunks: options.chunks, ...(queryVector ? { queryVector } : {}) });
    // On stderr: --json prints exactly the documented array.
    if (index.wordsOnly) cli.host.writeLine(`search: words only (the embedding model is not available): ${index.wordsOnly}`);
    if (options.json) {
      io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      return 0;
    }
    if (results.length === 0) io.stdout.write('No results.\n');
    for (const r of results) {
      const where = r.heading && r.heading !== r.title ? ` › ${r.heading}` : '';
      io.stdout.write(`${r.path}:${r.startLine}-${r.endLine}  ${r.title}${where}  (${r.score.toFixed(2)})\n    ${r.snippet}\n`);
      for (const s of r.sections ?? []) io.stdout.write(`    also ${r.path}:${s.startLine}-${s.endLine}${s.heading ? ` › ${s.heading}` : ''}  (${s.score.toFixed(2)})\n`);
    }
    return 0;
  } finally {
    queryEmbedding.abort();
  }
}
