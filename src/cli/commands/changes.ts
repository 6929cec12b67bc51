import { toChangeRow } from '../../core/changes/changeRecord';
import { createCliJournal } from '../changesContext';
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError } from '../cliContext';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth changes [--json] [--limit N] [--workspace DIR]

Lists the changes agents and tool clients made to the kiln (newest first), one row per file change,
from the journal in <kiln>/.hearth/changes. Undo them with \`hearth undo\`.

      --json           print [{id, turn, time, agent, tool, client, path, kind, state}]
      --limit N        at most N rows (default 50)
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandLine('changes', argv, { json: { type: 'boolean' }, limit: { type: 'string' } });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive whole number, not "${values.limit}" (see hearth changes --help)`);
  const cli = await createCliContext(io, values);
  const { journal } = createCliJournal(cli);
  const rows = (await journal.list()).reverse().slice(0, limit).map(toChangeRow);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    io.stdout.write('No journaled changes.\n');
    return 0;
  }
  for (const row of rows) {
    const who = [row.agent, row.client].filter(Boolean).join(' via ') || 'unknown';
    const state = row.state === 'done' ? '' : `  (${row.state})`;
    io.stdout.write(`${row.id}  ${row.time.slice(0, 19).replace('T', ' ')}  ${row.kind.padEnd(6)}  ${row.path}  ${row.tool} by ${who}  turn ${row.turn}${state}\n`);
  }
  return 0;
}
