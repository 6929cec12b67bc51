import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { unifiedDiff } from '../../../src/core/changes/changeDiff';
import { ChangeJournal } from '../../../src/core/changes/changeJournal';
import { isHearthError } from '../../../src/core/errors';
import { confinedKilnFiles } from '../../../src/core/changes/kilnFileAccess';
import { applyUndo, newestTurn, planUndo, UndoConflictError } from '../../../src/core/changes/undoChanges';
import { encodeEntry, newEntryId } from '../../../src/core/changes/journalEntries';
import { silentLogger } from '../../../src/core/host';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    try {
      chmodSync(join(dir, '.hearth', 'changes', 'entries'), 0o755);
    } catch {
      // not made read-only by this test
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

function kiln(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-changes-'));
  dirs.push(dir);
  return dir;
}

function journalFor(root: string, options: { keepDays?: number; maxMb?: number; now?: () => Date } = {}) {
  const files = confinedKilnFiles(root);
  return { files, journal: new ChangeJournal({ kilnRoot: root, files, log: silentLogger, keepDays: options.keepDays ?? 30, maxMb: options.maxMb ?? 100, now: options.now }) };
}

async function write(journal: ChangeJournal, files: ReturnType<typeof confinedKilnFiles>, path: string, after: Buffer | null, turn = 't1', tool = 'update_note') {
  const before = await files.read(path);
  return journal.record({ path, before, after }, { turn, tool, agent: 'kiln', client: 'test' }, () => (after === null ? files.remove(path) : files.write(path, after)));
}

test('a turn of create, update and delete is journaled per file and undone byte for byte (binary, CRLF, BOM)', async () => {
  const root = kiln();
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Title\r\nline\r\n')]);
  const binary = Buffer.from([0, 255, 13, 10, 1, 2, 3, 0xc3]);
  writeFileSync(join(root, 'bom.md'), bom);
  writeFileSync(join(root, 'gone.md'), binary);
  const { journal, files } = journalFor(root);
  await write(journal, files, 'new/created.md', Buffer.from('fresh'), 't1', 'create_note');
  await write(journal, files, 'bom.md', Buffer.from('replaced'), 't1');
  await write(journal, files, 'gone.md', null, 't1', 'delete_note');
  const rows = await journal.list();
  assert.deepEqual(rows.map((row) => [row.path, row.kind, row.state, row.turn]), [
    ['new/created.md', 'create', 'done', 't1'],
    ['bom.md', 'update', 'done', 't1'],
    ['gone.md', 'delete', 'done', 't1'],
  ]);
  assert.equal(existsSync(join(root, 'gone.md')), false);

  // A reload: a fresh journal object on the same folder finds the turn and restores it.
  const again = journalFor(root);
  const plan = await planUndo(again.journal, again.files, newestTurn(await again.journal.list()));
  assert.deepEqual(plan.conflicts, []);
  await applyUndo(again.journal, again.files, plan);
  assert.deepEqual(readFileSync(join(root, 'bom.md')), bom);
  assert.deepEqual(readFileSync(join(root, 'gone.md')), binary);
  assert.equal(existsSync(join(root, 'new/created.md')), false);
  const after = await again.journal.list();
  assert.deepEqual(after.filter((row) => row.turn === 't1').map((row) => row.state), ['undone', 'undone', 'undone']);
  // The undo is journaled too, and is not what the next "undo newest turn" picks.
  assert.equal(after.filter((row) => row.tool === 'undo').length, 3);
  assert.throws(() => newestTurn(after), (error) => isHearthError(error) && error.code === 'changes.nothing_to_undo');
});

test('undo never overwrites a note changed since; --force is the explicit override', async () => {
  const root = kiln();
  writeFileSync(join(root, 'a.md'), 'original');
  const { journal, files } = journalFor(root);
  await write(journal, files, 'a.md', Buffer.from('agent version'));
  writeFileSync(join(root, 'a.md'), 'user edited afterwards');
  const plan = await planUndo(journal, files, newestTurn(await journal.list()));
  assert.equal(plan.conflicts.length, 1);
  assert.equal(Buffer.from(plan.conflicts[0].current!).toString(), 'user edited afterwards');
  assert.equal(Buffer.from(plan.conflicts[0].expected!).toString(), 'agent version');
  await assert.rejects(applyUndo(journal, files, plan), (error) => error instanceof UndoConflictError && error.code === 'changes.conflict');
  assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'user edited afterwards');
  await applyUndo(journal, files, plan, { force: true });
  assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'original');
});

test('two changes to one file in a turn undo to the state before the first', async () => {
  const root = kiln();
  const { journal, files } = journalFor(root);
  await write(journal, files, 'n.md', Buffer.from('one'), 't9', 'create_note');
  await write(journal, files, 'n.md', Buffer.from('two'), 't9');
  await applyUndo(journal, files, await planUndo(journal, files, newestTurn(await journal.list())));
  assert.equal(existsSync(join(root, 'n.md')), false);
});

for (const when of ['before-write', 'after-write'] as const) {
  test(`kill -9 ${when === 'before-write' ? 'after the journal entry, before the note write' : 'after the note write, before the entry is marked done'}: the note is whole and the journal knows which`, () => {
    const root = kiln();
    writeFileSync(join(root, 'n.md'), 'old content');
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crashWriter.ts'), root, 'n.md', 'new content', when], { encoding: 'utf8' });
    assert.equal(child.signal, 'SIGKILL', child.stderr);
    const text = readFileSync(join(root, 'n.md'), 'utf8');
    assert.equal(text, when === 'before-write' ? 'old content' : 'new content');
    const { journal } = journalFor(root);
    return journal.list().then((rows) => {
      assert.equal(rows.length, 1);
      assert.equal(rows[0].state, when === 'before-write' ? 'aborted' : 'done');
      // The killed writer's lock is taken over, not waited on forever.
      assert.equal(existsSync(join(root, '.hearth', 'changes', 'lock')), false);
    });
  });
}

test('pruning: old records and then the oldest over max_mb go, with their blobs; pending are kept', async () => {
  const root = kiln();
  let now = new Date('2026-01-01T00:00:00Z');
  const { journal, files } = journalFor(root, { keepDays: 30, maxMb: 1, now: () => now });
  await write(journal, files, 'old.md', Buffer.alloc(1000, 'a'), 'old', 'create_note');
  now = new Date('2026-03-01T00:00:00Z');
  await write(journal, files, 'big1.md', Buffer.alloc(600_000, 'b'), 'b1', 'create_note');
  await write(journal, files, 'big2.md', Buffer.alloc(600_000, 'c'), 'b2', 'create_note');
  assert.deepEqual(await journal.prune(), { removed: 2 });
  assert.deepEqual((await journal.list()).map((row) => row.path), ['big2.md']);
  assert.equal(readdirSync(join(root, '.hearth', 'changes', 'blobs')).length, 1);
});

test('a damaged journal entry, or one this user did not write, is skipped with a warning; the notes and the other entries are untouched', async () => {
  const root = kiln();
  const { journal, files } = journalFor(root);
  await write(journal, files, 'a.md', Buffer.from('x'), 't1', 'create_note');
  const entries = join(root, '.hearth', 'changes', 'entries');
  writeFileSync(join(entries, '20260101-000000000-deadbeef.json'), '{"id": "truncat');
  writeFileSync(join(entries, '20260101-000000001-deadbeef.json'), '{"id": "../../etc/passwd", "path": "a.md"}');
  // Named as this user's Hearth names entries (the key's tag), but its content is not a record.
  const own = `${await newEntryId(new Date(), journal.key)}.json`;
  writeFileSync(join(entries, own), '{"id": "truncat');
  const warnings: string[] = [];
  const noisy = new ChangeJournal({ kilnRoot: root, files, log: sinkLogger((level, line) => void (level === 'warn' && warnings.push(line))), keepDays: 30, maxMb: 100 });
  assert.deepEqual((await noisy.list()).map((row) => row.path), ['a.md']);
  assert.equal(warnings.length, 2, warnings.join('\n'));
  assert.match(warnings[0], new RegExp(`^\\[changes\\] skipped journal entry ${own}: damaged`));
  assert.match(warnings[1], /^\[changes\] ignored 3 journal entries .* this user's Hearth did not write/);
  assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'x');
});

test('a journal that cannot be written refuses the edit with a clear error and leaves the note alone', { skip: process.getuid?.() === 0 ? 'root ignores directory permissions' : false }, async () => {
  const root = kiln();
  writeFileSync(join(root, 'a.md'), 'keep me');
  const { journal, files } = journalFor(root);
  await write(journal, files, 'b.md', Buffer.from('x'), 't1', 'create_note');
  chmodSync(join(root, '.hearth', 'changes', 'entries'), 0o555);
  await assert.rejects(write(journal, files, 'a.md', Buffer.from('changed')));
  assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'keep me');
});

test('a journal that cannot be created (its folder is a file) refuses the edit with changes.journal_unwritable; the note is untouched', async () => {
  const root = kiln();
  writeFileSync(join(root, 'a.md'), 'keep me');
  mkdirSync(join(root, '.hearth'));
  writeFileSync(join(root, '.hearth', 'changes'), 'not a folder');
  const { journal, files } = journalFor(root);
  await assert.rejects(write(journal, files, 'a.md', Buffer.from('changed')), (error) => isHearthError(error) && error.code === 'changes.journal_unwritable');
  assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'keep me');
});

test('a 20 MB note change is journaled and undone whole; its diff is summarised instead of computed', async () => {
  const root = kiln();
  const big = Buffer.alloc(20 * 1024 * 1024, 'x');
  writeFileSync(join(root, 'big.md'), big);
  const { journal, files } = journalFor(root);
  await write(journal, files, 'big.md', Buffer.from('small now'));
  assert.match(unifiedDiff('big.md', big, Buffer.from('small now')), /larger than 2 MB: 20971520 → 9 bytes/);
  await applyUndo(journal, files, await planUndo(journal, files, newestTurn(await journal.list())));
  assert.deepEqual(readFileSync(join(root, 'big.md')), big);
});

test('a journal folder that is a symlink out of the kiln is refused; nothing is written outside', async () => {
  const root = kiln();
  const outside = kiln();
  mkdirSync(join(root, '.hearth'));
  symlinkSync(outside, join(root, '.hearth', 'changes'));
  const { journal, files } = journalFor(root);
  await assert.rejects(write(journal, files, 'a.md', Buffer.from('x'), 't1', 'create_note'), (error) => isHearthError(error) && error.code === 'changes.journal_unwritable');
  assert.equal(existsSync(join(root, 'a.md')), false);
});

test('undo paths are confined: a journal entry naming ../outside cannot steer a restore out of the kiln', async () => {
  const root = kiln();
  const { journal, files } = journalFor(root);
  await write(journal, files, 'a.md', Buffer.from('x'), 't1', 'create_note');
  const entries = join(root, '.hearth', 'changes', 'entries');
  const [name] = readdirSync(entries);
  const record = JSON.parse(readFileSync(join(entries, name), 'utf8'));
  // Signed with the user's own key: only confinement stands between it and the outside.
  writeFileSync(join(entries, name), await encodeEntry({ ...record, mac: undefined, path: '../escaped.md' }, journal.key));
  await assert.rejects(async () => applyUndo(journal, files, await planUndo(journal, files, newestTurn(await journal.list()))), (error) => isHearthError(error) && error.code === 'kiln.path_outside_kiln');
  assert.equal(existsSync(join(root, '..', 'escaped.md')), false);
});
