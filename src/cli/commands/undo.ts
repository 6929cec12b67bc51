import { unifiedDiff } from '../../core/changes/changeDiff';
import { applyUndo, newestTurn, planUndo, type UndoPlan } from '../../core/changes/undoChanges';
import { createCliJournal } from '../changesContext';
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError } from '../cliContext';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth undo [ID] [--yes] [--force] [--workspace DIR]

Reverts the newest agent turn (every file it changed; one gateway call is a turn of its own), or the
one change ID from \`hearth changes\`, restoring exactly what was there before (deleted notes too).

A note that changed after the agent's change is never overwritten: the difference is shown and the
command exits 1. --force restores it anyway. A note saved while the question is open is not
overwritten either. Restoring a protected path (.git/, .vscode/, .hearth/, agent instruction files)
asks its own question on the terminal, which --yes does not answer; without a terminal it is refused.
An undo that was interrupted is finished by running it again: files already restored count as done.

      --force          restore even notes that changed since
${COMMON_HELP}
`;

function describe(plan: UndoPlan): string {
  const verb = (step: UndoPlan['steps'][number]) => (step.done ? 'done   ' : step.restore === null ? 'delete ' : 'restore');
  return plan.steps.map((step) => `  ${verb(step)} ${step.path}  (${step.newest.kind} by ${step.newest.tool}${step.done ? '; already restored by an interrupted undo' : ''})`).join('\n');
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('undo', argv, { force: { type: 'boolean' } }, true);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError('give at most one change id (see hearth undo --help)');
  const cli = await createCliContext(io, values);
  const { journal, files } = createCliJournal(cli);
  const records = positionals[0] ? [await journal.get(positionals[0])] : newestTurn(await journal.list());
  const plan = await planUndo(journal, files, records);
  if (plan.conflicts.length > 0) {
    for (const conflict of plan.conflicts) {
      io.stderr.write(`${conflict.path} changed after the agent's change (agent's version → now):\n${unifiedDiff(conflict.path, conflict.expected, conflict.current)}\n`);
    }
    if (!values.force) {
      io.stderr.write('hearth undo: not undone: the notes above changed since; nothing was overwritten. Run again with --force to restore them anyway.\n');
      return 1;
    }
  }
  if (!(await cli.host.confirm(`Undo turn ${records[0].turn}?`, describe(plan)))) {
    io.stderr.write('hearth undo: not undone.\n');
    return 1;
  }
  const restored = await applyUndo(journal, files, plan, { force: values.force === true, client: 'cli' });
  io.stdout.write(`Undone: ${restored.join(', ')}\n`);
  return 0;
}
