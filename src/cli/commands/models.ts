/** `hearth models`: every configured provider's models, the active one marked (DESIGN.md decision 5). */
import { HearthError } from '../../core/errors';
import { formatTable, modelRows } from '../../core/llm/modelTable';
import { createLlmContext } from '../llmContext';
import type { CliIo } from '../main';

const HELP = `Usage: hearth models [--json] [--refresh] [--workspace DIR]

Lists the models of every configured provider (queried in parallel; answers are cached for
5 minutes). The active provider/model is marked with *. A provider that cannot be reached is
listed with its error beside the others.

  --json       print [{provider, type, model, active, size?, error?}]
  --refresh    ignore the cache and ask every provider again
  --workspace  the workspace folder (default: the current directory)
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  let json = false;
  let refresh = false;
  let workspace: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      io.stdout.write(HELP);
      return 0;
    } else if (arg === '--json') json = true;
    else if (arg === '--refresh') refresh = true;
    else if (arg === '--workspace') workspace = argv[++i];
    else throw new HearthError('usage', `unknown option "${arg}"\n\n${HELP}`);
  }
  const ctx = await createLlmContext(io, workspace);
  const listing = await ctx.catalog.list({ refresh });
  await ctx.saveCatalog();
  const rows = modelRows(listing, ctx.selection.providers(), ctx.selection.current());
  io.stdout.write(json ? JSON.stringify(rows, null, 2) + '\n' : formatTable(rows));
  // Useful output even when some providers fail; an error exit only when none answered.
  return listing.length > 0 && listing.every((entry) => entry.error) ? 1 : 0;
}
