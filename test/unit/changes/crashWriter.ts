// A writer killed (SIGKILL) in the middle of a journaled change: before the note write
// (`before-write`) or after it, before the entry is marked done (`after-write`).
import { ChangeJournal } from '../../../src/core/changes/changeJournal';
import { confinedKilnFiles } from '../../../src/core/changes/kilnFileAccess';
import { silentLogger } from '../../../src/core/host';

const [kiln, path, content, when] = process.argv.slice(2);
async function main(): Promise<void> {
const files = confinedKilnFiles(kiln);
const journal = new ChangeJournal({ kilnRoot: kiln, files, log: silentLogger, keepDays: 30, maxMb: 100 });
const before = await files.read(path);
await journal.record({ path, before, after: Buffer.from(content) }, { turn: 't-crash', tool: 'update_note', agent: 'kiln' }, async () => {
  if (when === 'before-write') process.kill(process.pid, 'SIGKILL');
  await files.write(path, Buffer.from(content));
  if (when === 'after-write') process.kill(process.pid, 'SIGKILL');
});
}

void main();
