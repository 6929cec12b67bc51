import { ChangeJournal } from '../core/changes/changeJournal';
import { confinedKilnFiles, type KilnFileAccess } from '../core/changes/kilnFileAccess';
import type { CliContext } from './cliContext';

/** The kiln's change journal as `hearth changes` and `hearth undo` use it. */
export function createCliJournal(cli: CliContext): { journal: ChangeJournal; files: KilnFileAccess } {
  const { config } = cli.loaded;
  const kilnRoot = config.kiln_path ?? cli.workspaceRoot;
  const files = confinedKilnFiles(kilnRoot);
  return { files, journal: new ChangeJournal({ kilnRoot, files, log: cli.host.log, keepDays: config.changes.keep_days, maxMb: config.changes.max_mb }) };
}
