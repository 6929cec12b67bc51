import type { KilnIndex } from '../../core/index/kilnIndex';
import { indexSemanticSearch } from '../../core/index/semanticSearchFn';
import { kilnToolContext } from '../../core/kiln/tools/kilnToolContext';
import { bindKilnContext } from '../../core/kiln/tools/kilnTools';
import { relatedNotes } from '../../core/kiln/tools/linkTools';
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError } from '../cliContext';
import { createCliIndex } from '../indexContext';
import type { CliIo } from '../cliIo';
import { indexWithProgress } from './indexKiln';

const HELP = `Usage: hearth related NOTE | --text "…" [--limit N] [--json] [--workspace DIR]

Lists the notes nearest to a note or to a text, from the kiln index: for a note, the notes whose
meaning as a whole (the mean of their sections' vectors) is nearest to its own (the note itself is
left out; where the index keeps no vectors of its own, its title and opening are a hybrid query);
for a text, the hybrid ranking (words and meaning). One result per note with its best section and
a relevance from 0 to 1. The index is brought up to date first (only changed notes are embedded).

      --text TEXT      find notes related to this text instead of a note
      --limit N        at most N notes (default 10)
      --json           print {path | text, count, results: [{path, title, heading, startLine, endLine,
                       score, snippet, linked}]} (linked: the note already links to it)
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('related', argv, { text: { type: 'string' }, limit: { type: 'string', short: 'n' }, json: { type: 'boolean' } }, true);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const note = positionals.join(' ').trim();
  const text = values.text?.trim();
  if (!note === !text) throw new UsageError('give a note or --text "…", not both (see hearth related --help)');
  const limit = values.limit === undefined ? 10 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new UsageError('--limit must be a whole number from 1 to 50 (see hearth related --help)');
  const cli = await createCliContext(io, values, { trustNeeds: { areas: ['embedding', 'database', 'kiln'] } });
  cli.reportConfigProblems();
  let index: KilnIndex | undefined;
  try {
    index = createCliIndex(cli, io);
    await indexWithProgress(cli, index);
    const opened = index;
    const ctx = bindKilnContext(kilnToolContext(cli.loaded.config, cli.host, cli.workspaceRoot, indexSemanticSearch(() => opened)));
    const related = await relatedNotes(ctx, note ? { path: /\.md$/i.test(note) ? note : `${note}.md` } : { text }, limit);
    if (values.json) {
      io.stdout.write(`${JSON.stringify(related, null, 2)}\n`);
      return 0;
    }
    const results = related.results;
    if (results.length === 0) io.stdout.write('No related notes.\n');
    for (const r of results) {
      const where = r.heading && r.heading !== r.title ? ` › ${r.heading}` : '';
      io.stdout.write(`${r.path}:${r.startLine}-${r.endLine}  ${r.title}${where}  (${r.score.toFixed(2)})${r.linked ? '  linked' : ''}\n`);
    }
    return 0;
  } finally {
    await index?.dispose();
  }
}
