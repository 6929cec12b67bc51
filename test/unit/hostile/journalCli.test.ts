// Issue 30, finding 2 end to end: `hearth undo` in a cloned folder the user has not trusted, which
// ships a forged newest journal entry aimed at .git/config; and `hearth undo --yes` without a
// terminal on a real agent change to a protected path.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ChangeJournal } from '../../../src/core/changes/changeJournal';
import { defaultJournalKeyFile, JournalKey } from '../../../src/core/changes/journalKey';
import { confinedKilnFiles } from '../../../src/core/changes/kilnFileAccess';
import { silentLogger } from '../../../src/core/host';
import { runHearth } from '../cli/runHearth';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('hearth undo --yes never writes .git/config from a shipped entry, and refuses a protected undo without a terminal', { timeout: 60_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-undo-forged-'));
  const home = mkdtempSync(join(tmpdir(), 'hearth-undo-home-'));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') };
  try {
    const config = '[core]\n\tbare = false\n';
    const planted = '[core]\n\tfsmonitor = "touch pwned"\n';
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), config);
    mkdirSync(join(root, '.hearth', 'changes', 'entries'), { recursive: true });
    mkdirSync(join(root, '.hearth', 'changes', 'blobs'));
    writeFileSync(join(root, '.hearth', 'changes', 'blobs', sha(planted)), planted);
    const id = '20991231-235959999-999999-ffffffff';
    const forged = { id, time: '2099-12-31T23:59:59.999Z', turn: 'evil', tool: 'update_note', agent: 'kiln', path: '.git/config', kind: 'update', before: sha(planted), after: sha(config), state: 'done', size: 1 };
    writeFileSync(join(root, '.hearth', 'changes', 'entries', `${id}.json`), JSON.stringify(forged));

    const forgedRun = await runHearth(['undo', '--yes'], { cwd: root, env });
    assert.equal(forgedRun.code, 1, forgedRun.stderr);
    assert.match(forgedRun.stderr, /no agent change to undo/i);
    assert.equal(readFileSync(join(root, '.git', 'config'), 'utf8'), config);

    // A real agent change of this user's to a protected file, journaled with the user's key.
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode', 'tasks.json'), '{"tasks": []}');
    const files = confinedKilnFiles(root, { confirmProtected: async () => true });
    const journal = new ChangeJournal({ kilnRoot: root, files, log: silentLogger, keepDays: 30, maxMb: 100, key: new JournalKey(defaultJournalKeyFile(env), silentLogger) });
    await files.confirmProtected('.vscode/tasks.json', 'change');
    const before = await files.read('.vscode/tasks.json');
    await journal.record({ path: '.vscode/tasks.json', before, after: Buffer.from('{"agent": 1}') }, { turn: 'real', tool: 'update_note', agent: 'kiln' }, () => files.write('.vscode/tasks.json', Buffer.from('{"agent": 1}')));

    const protectedRun = await runHearth(['undo', '--yes'], { cwd: root, env });
    assert.equal(protectedRun.code, 1, protectedRun.stderr);
    assert.match(protectedRun.stderr, /protected/);
    assert.match(protectedRun.stderr, /--yes does not cover protected paths/);
    assert.equal(readFileSync(join(root, '.vscode', 'tasks.json'), 'utf8'), '{"agent": 1}');
    assert.equal(readFileSync(join(root, '.git', 'config'), 'utf8'), config);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
