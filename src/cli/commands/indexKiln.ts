import type { IndexReport } from '../../core/index/indexer';
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError, type CliContext } from '../cliContext';
import { createCliIndex } from '../indexContext';
import type { CliIo } from '../cliIo';
import type { KilnIndex } from '../../core/index/kilnIndex';

const HELP = `Usage: hearth index [--force | --clear | --copy-to flat|postgres] [--json] [--workspace DIR]

Brings the kiln's index (<kiln>/.hearth/index/) up to date: only notes whose content changed are
embedded again, deleted or excluded notes leave it. Progress on stderr per [cli].show_progress;
Ctrl-C stops after the current batch and keeps what was embedded.

      --force          embed every note again (asks first per [cli].confirm_destructive)
      --clear          empty the index and stop (asks first per [cli].confirm_destructive)
      --copy-to KIND   copy this index's vectors into the flat or postgres store by text hash
                       (embeds nothing that this index holds), then bring that store up to date
      --json           print the report as JSON
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandLine('index', argv, { force: { type: 'boolean' }, clear: { type: 'boolean' }, json: { type: 'boolean' }, 'copy-to': { type: 'string' } });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const cli = await createCliContext(io, values, { trustNeeds: { areas: ['embedding', 'database', 'kiln'] } });
  cli.reportConfigProblems();
  const index = createCliIndex(cli, io);
  try {
    if (values.clear) {
      if (!(await cli.host.confirm(`Clear the index in ${index.dir}?`, 'Every note is embedded again by the next `hearth index`.'))) return 1;
      await index.clear();
      io.stdout.write(values.json ? `${JSON.stringify({ cleared: index.dir })}\n` : `Cleared the index in ${index.dir}\n`);
      return 0;
    }
    const copyTo = values['copy-to'];
    if (copyTo !== undefined) {
      if (copyTo !== 'flat' && copyTo !== 'postgres') throw new UsageError(`--copy-to takes flat or postgres, not ${JSON.stringify(copyTo)}.`);
      if (copyTo === index.kind) throw new UsageError(`The index already is the ${copyTo} store ([processing].store); --copy-to names the other one.`);
      const report = await cli.host.withProgress({ title: `Copying the index to ${copyTo}`, cancellable: true }, (progress, signal) => index.copyTo(copyTo, { progress, signal }));
      io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}copied    ${report.copied} vectors from ${report.from} to ${report.to}; embedded ${report.reembedded} chunks anew\n`);
      return report.cancelled ? 130 : 0;
    }
    if (values.force && (await index.exists()) && !(await cli.host.confirm('Rebuild the whole index?', 'Every note is embedded again.'))) return 1;
    const report = await indexWithProgress(cli, index, values.force === true);
    io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    return report.cancelled ? 130 : 0;
  } finally {
    await index.dispose();
  }
}

/** One run under the CLI's progress bar (cancellable with Ctrl-C); problems go to stderr. */
export async function indexWithProgress(cli: CliContext, index: KilnIndex, force = false): Promise<IndexReport> {
  const report = await cli.host.withProgress({ title: 'Indexing the kiln', cancellable: true }, (progress, signal) => index.update({ force, progress, signal }));
  if (report.rebuilt) cli.host.writeLine(`index: rebuilt from scratch: ${report.rebuilt}`);
  for (const problem of report.problems) cli.host.writeLine(`index: ${problem.path}: ${problem.message}`);
  for (const skip of report.skipped) cli.host.log.child('index').info(`skipped ${skip.path}: ${skip.reason}`);
  if (report.cancelled) cli.host.writeLine('index: cancelled; what was embedded is kept, and the next run continues from there.');
  return report;
}

function formatReport(r: IndexReport): string {
  return (
    [
      `notes     ${r.notes}`,
      `chunks    ${r.chunks}`,
      `embedded  ${r.embedded} chunks of ${r.embeddedNotes} notes (${r.unchanged} unchanged, ${r.removed} removed)`,
      `skipped   ${r.skipped.length}${r.problems.length > 0 ? ` (${r.problems.length} with problems)` : ''}`,
      `seconds   ${r.seconds.toFixed(2)}`,
    ].join('\n') + '\n'
  );
}
