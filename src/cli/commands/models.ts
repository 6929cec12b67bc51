/** `hearth models`: every configured provider's models, the active one marked (DESIGN.md decision 5). */
import { formatTable, modelRows } from '../../core/llm/modelTable';
import { COMMON_HELP, parseCommandLine } from '../cliContext';
import { createLlmContext } from '../llmContext';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth models [--json] [--refresh] [--workspace DIR]

Lists the models of every configured provider (queried in parallel; answers are cached for
5 minutes). The active provider/model is marked with *. A provider that cannot be reached is
listed with its error beside the others.

      --json           print [{provider, type, model, active, size?, error?}]
      --refresh        ignore the cache and ask every provider again
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandLine('models', argv, { json: { type: 'boolean' }, refresh: { type: 'boolean' } });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const refresh = values.refresh === true;
  const ctx = await createLlmContext(io, values);
  const listing = await ctx.catalog.list({ refresh });
  await ctx.saveCatalog();
  const rows = modelRows(listing, ctx.selection.providers(), ctx.selection.current());
  io.stdout.write(values.json ? JSON.stringify(rows, null, 2) + '\n' : formatTable(rows));
  // Useful output even when some providers fail; an error exit only when none answered.
  return listing.length > 0 && listing.every((entry) => entry.error) ? 1 : 0;
}
