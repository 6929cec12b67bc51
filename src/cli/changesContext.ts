import { openChangeJournal, type ChangeJournal } from '../core/changes/changeJournal';
import type { KilnFileAccess } from '../core/changes/kilnFileAccess';
import type { CliContext } from './cliContext';

/** The kiln's change journal as `hearth changes` and `hearth undo` use it. */
export function createCliJournal(cli: CliContext): { journal: ChangeJournal; files: KilnFileAccess } {
  const { config } = cli.loaded;
  const kilnRoot = config.kiln_path ?? cli.workspaceRoot;
  return openChangeJournal(kilnRoot, config.changes, cli.host.log);
}
