import { openChangeJournal, type ChangeJournal } from '../core/changes/changeJournal';
import type { KilnFileAccess } from '../core/changes/kilnFileAccess';
import { kilnProtection } from '../core/fs/kilnProtection';
import type { CliContext } from './cliContext';

/**
 * The kiln's change journal as `hearth changes` and `hearth undo` use it: an undo of a protected
 * path asks on the terminal (never answered by --yes) and is refused without one.
 */
export function createCliJournal(cli: CliContext): { journal: ChangeJournal; files: KilnFileAccess } {
  const { config } = cli.loaded;
  const kilnRoot = config.kiln_path ?? cli.workspaceRoot;
  return openChangeJournal(kilnRoot, config.changes, cli.host.log, {
    rules: kilnProtection(config, { kilnRoot, workspaceRoot: cli.workspaceRoot }),
    confirmProtected: (request) => cli.host.confirmProtected(request),
  });
}
