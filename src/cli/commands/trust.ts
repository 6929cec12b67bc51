/**
 * `hearth trust [PATH]`, `hearth trust --list`, `hearth trust --revoke [PATH]`: the CLI's trusted
 * folders (DESIGN.md decision 14), kept beside the global config. Trusting a folder trusts its
 * subfolders; the editor's Workspace Trust is separate.
 */
import { resolve } from 'node:path';
import { parseCommandLine, UsageError } from '../cliContext';
import { trustedFoldersFor } from '../cliTrust';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth trust [PATH]            trust a folder (default: the current one) and its subfolders
       hearth trust --list           the trusted folders, one per line
       hearth trust --revoke [PATH]  stop trusting a folder

In a trusted folder, .hearth/config.toml may start [[mcp.servers]] and [acp.agents.*], send to its
endpoints, database and hosted embedding provider, read {env:} and {secret:} values, use a kiln_path
outside the folder and agent_directories. Elsewhere those keys are ignored, and commands that need
them stop with exit code 3. --trust or HEARTH_TRUST=1 trusts for one run. The list is kept in
trusted-folders.json beside the global config; folders are compared after resolving symlinks.
VS Code's Workspace Trust is separate: trusting a folder in the editor does not trust it here.

      --list           print the trusted folders
      --revoke         remove PATH (default: the current folder) from the list
  -h, --help           this help
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('trust', argv, { list: { type: 'boolean' }, revoke: { type: 'boolean' } }, true);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`one folder at a time, got ${positionals.length} (see hearth trust --help)`);
  if (values.list && (values.revoke || positionals.length > 0)) throw new UsageError('--list takes no folder and no --revoke (see hearth trust --help)');
  const store = trustedFoldersFor(io.env);
  if (values.list) {
    const folders = await store.list();
    for (const folder of folders) io.stdout.write(`${folder}\n`);
    if (folders.length === 0) io.stderr.write(`hearth trust: no trusted folders (${store.file})\n`);
    return 0;
  }
  const folder = resolve(io.cwd, positionals[0] ?? values.workspace ?? '.');
  if (values.revoke) {
    const removed = await store.remove(folder);
    if (removed) io.stderr.write(`hearth trust: ${folder} is no longer trusted\n`);
    else {
      const still = await store.covering(folder);
      io.stderr.write(`hearth trust: ${folder} was not in the list${still ? `; it stays trusted through ${still} (hearth trust --revoke ${still})` : ''}\n`);
      return still ? 1 : 0;
    }
    return 0;
  }
  const stored = await store.add(folder);
  io.stderr.write(`hearth trust: trusted ${stored} and its subfolders; its .hearth/config.toml applies in full to hearth commands (not to the editor's Workspace Trust)\n`);
  return 0;
}
