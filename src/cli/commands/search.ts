import { SEARCH_MODES, type SearchMode } from '../../core/index/searchResult';
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError } from '../cliContext';
import { createCliIndex } from '../indexContext';
import type { CliIo } from '../main';
import { indexWithProgress } from './indexKiln';

const HELP = `Usage: hearth search "query" [--mode hybrid|semantic|text|property] [--limit N] [--json] [--workspace DIR]

Searches the kiln. hybrid (default) fuses BM25 and vector search by reciprocal rank; semantic is
vector top-k; text matches a literal (case-insensitive) or a /regex/flags line by line; property
takes key=value pairs ("status=draft tags=garden") matched against the frontmatter. Before a
hybrid or semantic search the index is brought up to date (only changed notes are embedded).

      --mode MODE      hybrid (default), semantic, text or property
      --limit N        at most N results (default 10)
      --json           print [{path, title, heading, startLine, endLine, score, snippet}]
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('search', argv, { mode: { type: 'string', short: 'm' }, limit: { type: 'string', short: 'n' }, json: { type: 'boolean' } }, true);
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

  const cli = await createCliContext(io, values);
  cli.reportConfigProblems();
  const index = createCliIndex(cli, io);
  try {
    if (mode === 'hybrid' || mode === 'semantic') {
      const report = await indexWithProgress(cli, index);
      if (report.embedded > 0) cli.host.log.info(`index: embedded ${report.embedded} chunks of ${report.embeddedNotes} notes`);
    }
    const results = await index.search(query, { mode, limit });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      return 0;
    }
    if (results.length === 0) io.stdout.write('No results.\n');
    for (const r of results) {
      const where = r.heading && r.heading !== r.title ? ` › ${r.heading}` : '';
      io.stdout.write(`${r.path}:${r.startLine}-${r.endLine}  ${r.title}${where}  (${r.score.toFixed(3)})\n    ${r.snippet}\n`);
    }
    return 0;
  } finally {
    await index.dispose();
  }
}
