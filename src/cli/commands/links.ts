import { ConfinedRoot } from '../../core/fs/confinedRoot';
import { readKilnLinks } from '../../core/kiln/links/kilnLinks';
import { backlinkRows, noteLinks, notePathIn } from '../../core/kiln/tools/linkTools';
import { teamLinksFor } from '../../core/kiln/tools/kilnToolContext';
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError } from '../cliContext';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth links NOTE [--json] [--workspace DIR]

Lists a note's links: outgoing (wikilinks [[…]], embeds and markdown links to notes, each with the
note it leads to; an ambiguous name lists every candidate), backlinks (the notes linking to it, each
with its line of text) and unresolved links (targets that are no note). With [processing] store =
"postgres", this member's links are published to the team database and the backlinks include
every member's notes. NOTE is a path relative to
the kiln; ".md" may be left out. Links resolve as Obsidian resolves them: the exact path, then the
shortest path ending in the name (case-insensitive), then frontmatter aliases.

      --json           print {path, title, aliases, outgoing, backlinks, unresolved}
                       (outgoing/unresolved: [{kind, target, fragment?, alias?, embed?, line, path, ambiguous?}],
                       backlinks: [{source, line, context, kind, fragment?}])
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('links', argv, { json: { type: 'boolean' } }, true);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const note = positionals.join(' ').trim();
  if (!note) throw new UsageError('give a note, e.g. hearth links projects/plan.md (see hearth links --help)');
  const cli = await createCliContext(io, values, { trustNeeds: { areas: ['kiln'] } });
  cli.reportConfigProblems();
  const { config } = cli.loaded;
  const kilnRoot = config.kiln_path ?? cli.workspaceRoot;
  const links = await readKilnLinks(new ConfinedRoot(kilnRoot), config.processing);
  const report = noteLinks(links.graph, notePathIn(links.graph, note));
  const team = teamLinksFor(config, cli.host, kilnRoot);
  if (team) report.backlinks = backlinkRows(await team.backlinks(links.graph, report.path));
  if (values.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(`${report.path}  ${report.title}${report.aliases.length ? `  (aliases: ${report.aliases.join(', ')})` : ''}\n`);
  section(io, 'Outgoing', report.outgoing, (l) => `${report.path}:${l.line}  → ${l.path}${l.fragment ? `#${l.fragment}` : ''}${l.ambiguous ? `  (ambiguous: ${l.ambiguous.join(', ')})` : ''}`);
  section(io, 'Backlinks', report.backlinks, (b) => `${b.source}:${b.line}  ${b.context}`);
  section(io, 'Unresolved', report.unresolved, (l) => `${report.path}:${l.line}  ${l.target}${l.outside_kiln ? '  (outside the kiln)' : ''}`);
  return 0;
}

function section<T>(io: CliIo, title: string, rows: readonly T[], line: (row: T) => string): void {
  io.stdout.write(`\n${title} (${rows.length})\n`);
  for (const row of rows) io.stdout.write(`  ${line(row)}\n`);
}
