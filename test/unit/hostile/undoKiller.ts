// Runs the undo of the newest turn and kills itself (SIGKILL) right after its Nth file write: an
// undo interrupted half-way (issue 30, finding 10). Args: kiln, key file, N.
import { ChangeJournal } from '../../../src/core/changes/changeJournal';
import { JournalKey } from '../../../src/core/changes/journalKey';
import { confinedKilnFiles, type KilnFileAccess } from '../../../src/core/changes/kilnFileAccess';
import { applyUndo, newestTurn, planUndo } from '../../../src/core/changes/undoChanges';
import { silentLogger } from '../../../src/core/host';

const [kiln, keyFile, after] = process.argv.slice(2);
const inner = confinedKilnFiles(kiln);
let writes = 0;
const files: KilnFileAccess = {
  ...inner,
  async write(path, bytes) {
    await inner.write(path, bytes);
    if (++writes === Number(after)) process.kill(process.pid, 'SIGKILL');
  },
};
const journal = new ChangeJournal({ kilnRoot: kiln, files, log: silentLogger, keepDays: 30, maxMb: 100, key: new JournalKey(keyFile, silentLogger) });
void (async () => {
  const plan = await planUndo(journal, files, newestTurn(await journal.list()));
  await applyUndo(journal, files, plan);
})();
