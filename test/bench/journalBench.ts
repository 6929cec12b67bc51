// Issue 30, finding 12: the first agent edit in a kiln that ships 50,000 journal entries dated 2099,
// against the same edit in an empty journal (the baseline, measured in the same run).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeJournal } from '../../src/core/changes/changeJournal';
import { JournalKey } from '../../src/core/changes/journalKey';
import { confinedKilnFiles } from '../../src/core/changes/kilnFileAccess';
import { silentLogger } from '../../src/core/host';

/** ms of one process's first journaled edit (it prunes) in a fresh kiln with `forged` shipped entries. */
async function firstEdit(forged: number, keyFile: string): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'hearth-bench-journal-'));
  try {
    const entries = join(root, '.hearth', 'changes', 'entries');
    mkdirSync(entries, { recursive: true });
    for (let i = 0; i < forged; i++) {
      const id = `20991231-235959999-${String(i).padStart(6, '0')}-ffffffff`;
      writeFileSync(join(entries, `${id}.json`), JSON.stringify({ id, time: '2099-12-31T23:59:59.999Z', turn: `f${i}`, tool: 'update_note', path: `n${i}.md`, kind: 'create', before: null, after: null, state: 'done', size: 2 ** 40 }));
    }
    const files = confinedKilnFiles(root);
    const journal = new ChangeJournal({ kilnRoot: root, files, log: silentLogger, keepDays: 30, maxMb: 100, key: new JournalKey(keyFile, silentLogger) });
    const started = performance.now();
    await journal.record({ path: 'a.md', before: null, after: Buffer.from('x') }, { turn: 't', tool: 'create_note' }, () => files.write('a.md', Buffer.from('x')));
    return performance.now() - started;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function runJournalBench(): Promise<{ label: string; value: string }[]> {
  const keyDir = mkdtempSync(join(tmpdir(), 'hearth-bench-key-'));
  try {
    const keyFile = join(keyDir, 'journal.key');
    await firstEdit(0, keyFile); // warm-up: modules loaded, key created
    const baseline = await firstEdit(0, keyFile);
    const hostile = await firstEdit(50_000, keyFile);
    return [
      { label: 'first agent edit, empty journal (baseline)', value: `${baseline.toFixed(1)} ms` },
      { label: 'first agent edit, 50 000 shipped entries dated 2099', value: `${hostile.toFixed(1)} ms (${(hostile / baseline).toFixed(0)}× baseline)` },
    ];
  } finally {
    rmSync(keyDir, { recursive: true, force: true });
  }
}
