// Issue 30, findings 2, 9, 10 and 11: undo goes through the write gate (protected paths asked every
// time, refused where nobody can be asked), compares again at write time, resumes after a kill, and
// lock files committed with a repository do not stall it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { ChangeJournal } from '../../../src/core/changes/changeJournal';
import { JournalKey } from '../../../src/core/changes/journalKey';
import { confinedKilnFiles, type KilnWriteProtection } from '../../../src/core/changes/kilnFileAccess';
import { applyUndo, newestTurn, planUndo } from '../../../src/core/changes/undoChanges';
import { isHearthError } from '../../../src/core/errors';
import type { ProtectedWriteRequest } from '../../../src/core/fs/writeGate';
import { silentLogger } from '../../../src/core/host';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(prefix = 'hearth-journal-undo-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function open(root: string, keyFile: string, protection?: KilnWriteProtection) {
  const warnings: string[] = [];
  const files = confinedKilnFiles(root, protection);
  const journal = new ChangeJournal({ kilnRoot: root, files, log: sinkLogger((level, line) => void (level === 'warn' && warnings.push(line))), keepDays: 30, maxMb: 100, key: new JournalKey(keyFile, silentLogger) });
  return { journal, files, warnings };
}

/** An agent's change, made as the kiln tools make it (a protected path was allowed then). */
async function agentWrite(root: string, keyFile: string, path: string, after: string, turn = 't1') {
  const { journal, files } = open(root, keyFile, { confirmProtected: async () => true });
  const before = await files.read(path);
  await files.confirmProtected(path, before === null ? 'create' : 'change');
  await journal.record({ path, before, after: Buffer.from(after) }, { turn, tool: 'update_note', agent: 'kiln' }, () => files.write(path, Buffer.from(after)));
}

test('a note saved while the undo question is open is a conflict: the save survives', async () => {
  const root = scratch();
  const keyFile = join(scratch('hearth-key-'), 'journal.key');
  writeFileSync(join(root, 'a.md'), 'original');
  await agentWrite(root, keyFile, 'a.md', 'agent version');
  const { journal, files } = open(root, keyFile);
  const plan = await planUndo(journal, files, newestTurn(await journal.list()));
  assert.deepEqual(plan.conflicts, []);
  // The user types while "Undo kiln's last change?" waits for an answer, then answers yes.
  writeFileSync(join(root, 'a.md'), 'typed while the question was open');
  await assert.rejects(applyUndo(journal, files, plan), (error) => isHearthError(error) && error.code === 'changes.conflict' && /changed while the undo waited/.test(error.message));
  assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'typed while the question was open');
  // Nothing is marked undone: the change is still offered.
  assert.equal(newestTurn(await journal.list()).length, 1);
});

test('a note saved while a protected-path question is open is a conflict too', async () => {
  const root = scratch();
  const keyFile = join(scratch('hearth-key-'), 'journal.key');
  await agentWrite(root, keyFile, 'CLAUDE.md', 'agent instructions');
  const { journal, files } = open(root, keyFile, {
    confirmProtected: async () => {
      writeFileSync(join(root, 'CLAUDE.md'), 'the user edited it meanwhile');
      return true;
    },
  });
  const plan = await planUndo(journal, files, newestTurn(await journal.list()));
  await assert.rejects(applyUndo(journal, files, plan), (error) => isHearthError(error) && error.code === 'changes.conflict');
  assert.equal(readFileSync(join(root, 'CLAUDE.md'), 'utf8'), 'the user edited it meanwhile');
});

test('undo of a protected path asks every time, and is refused where nobody can be asked', async () => {
  const root = scratch();
  const keyFile = join(scratch('hearth-key-'), 'journal.key');
  mkdirSync(join(root, '.vscode'));
  writeFileSync(join(root, '.vscode', 'settings.json'), '{"before": true}');
  await agentWrite(root, keyFile, '.vscode/settings.json', '{"agent": true}');
  await agentWrite(root, keyFile, 'note.md', 'plain note');

  // The CLI without a terminal (and --yes does not answer for protected paths): refused, nothing written.
  const nobody = open(root, keyFile);
  const turn = newestTurn(await nobody.journal.list());
  const plan = await planUndo(nobody.journal, nobody.files, turn);
  await assert.rejects(applyUndo(nobody.journal, nobody.files, plan), (error) => isHearthError(error) && error.code === 'fs.protected_unconfirmed');
  assert.equal(readFileSync(join(root, '.vscode', 'settings.json'), 'utf8'), '{"agent": true}');
  assert.equal(readFileSync(join(root, 'note.md'), 'utf8'), 'plain note', 'asked before any file was written');

  const asked: ProtectedWriteRequest[] = [];
  const declining = open(root, keyFile, { confirmProtected: async (request) => (asked.push(request), false) });
  await assert.rejects(applyUndo(declining.journal, declining.files, await planUndo(declining.journal, declining.files, turn)), (error) => isHearthError(error) && error.code === 'fs.protected_declined');
  assert.deepEqual(asked.map((request) => [request.path, request.action]), [['.vscode/settings.json', 'change']]);
  assert.match(asked[0].actor ?? '', /Undo of kiln's change/);

  const allowing = open(root, keyFile, { confirmProtected: async () => true });
  await applyUndo(allowing.journal, allowing.files, await planUndo(allowing.journal, allowing.files, turn));
  assert.equal(readFileSync(join(root, '.vscode', 'settings.json'), 'utf8'), '{"before": true}');
});

test('an undo killed half-way is finished by running it again, without --force', () => {
  const root = scratch();
  const keyFile = join(scratch('hearth-key-'), 'journal.key');
  const paths = Array.from({ length: 8 }, (_, i) => `n${i}.md`);
  return (async () => {
    for (const path of paths) writeFileSync(join(root, path), `before ${path}`);
    for (const path of paths) await agentWrite(root, keyFile, path, `agent ${path}`, 'big-turn');
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'undoKiller.ts'), root, keyFile, '3'], { encoding: 'utf8' });
    assert.equal(child.signal, 'SIGKILL', child.stderr);
    assert.equal(paths.filter((path) => readFileSync(join(root, path), 'utf8').startsWith('before')).length, 3, paths.map((path) => readFileSync(join(root, path), 'utf8')).join('|'));

    const { journal, files } = open(root, keyFile);
    const plan = await planUndo(journal, files, newestTurn(await journal.list()));
    assert.deepEqual(plan.conflicts, [], 'files already restored are not conflicts');
    // Two files were marked undone before the kill; the third was written but not yet marked, and
    // counts as done because it already holds its `before` content.
    assert.equal(plan.steps.length, 6);
    assert.deepEqual(plan.steps.filter((step) => step.done).map((step) => step.path), ['n2.md']);
    await applyUndo(journal, files, plan);
    for (const path of paths) assert.equal(readFileSync(join(root, path), 'utf8'), `before ${path}`);
    const rows = await journal.list();
    assert.ok(rows.filter((row) => row.turn === 'big-turn').every((row) => row.state === 'undone'));
    assert.throws(() => newestTurn(rows), (error) => isHearthError(error) && error.code === 'changes.nothing_to_undo');
  })();
});

test('lock files committed with the repository (another host) are taken over at once, with a notice', async () => {
  const root = scratch();
  const keyFile = join(scratch('hearth-key-'), 'journal.key');
  mkdirSync(join(root, '.hearth', 'changes'), { recursive: true });
  writeFileSync(join(root, '.hearth', 'changes', 'lock'), JSON.stringify({ pid: 4242, host: 'ci-runner-7' }));
  const { journal, files, warnings } = open(root, keyFile);
  // Before: 15 s of waiting, then changes.locked, on every edit.
  await journal.record({ path: 'a.md', before: null, after: Buffer.from('x') }, { turn: 't', tool: 'create_note' }, () => files.write('a.md', Buffer.from('x')));
  assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'x');
  assert.match(warnings.join('\n'), /took over the lock .*another machine \(ci-runner-7\)/);
});
