// Issue 30, findings 1, 2, 12 and 15: a repository that ships its own `.hearth/changes/` — linked
// journal folders, a forged newest entry aimed at .git/config, 50,000 entries dated 2099 — and the
// temp files a killed writer leaves. The journal trusts only what this user's Hearth wrote.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { ChangeJournal } from '../../../src/core/changes/changeJournal';
import { JournalKey } from '../../../src/core/changes/journalKey';
import { confinedKilnFiles } from '../../../src/core/changes/kilnFileAccess';
import { applyUndo, newestTurn, planUndo } from '../../../src/core/changes/undoChanges';
import { isHearthError } from '../../../src/core/errors';
import { ConfinedRoot } from '../../../src/core/fs/confinedRoot';
import { silentLogger } from '../../../src/core/host';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(prefix = 'hearth-journal-trust-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A kiln and its journal, the key kept in a folder of its own (the user's data folder), and what it warned. */
function open(root: string, options: { maxMb?: number; keyDir?: string } = {}) {
  const warnings: string[] = [];
  const log = sinkLogger((level, line) => void (level === 'warn' && warnings.push(line)));
  const key = new JournalKey(join(options.keyDir ?? scratch('hearth-key-'), 'journal.key'), silentLogger);
  const files = confinedKilnFiles(root);
  const journal = new ChangeJournal({ kilnRoot: root, files, log, keepDays: 30, maxMb: options.maxMb ?? 100, key });
  const edit = async (path: string, after: string, turn = 't1') => {
    const before = await files.read(path);
    return journal.record({ path, before, after: Buffer.from(after) }, { turn, tool: 'update_note', agent: 'kiln' }, () => files.write(path, Buffer.from(after)));
  };
  return { journal, files, warnings, edit, key };
}

test('a shipped blobs -> outside link: the first edit deletes nothing outside; the link becomes a real folder', async () => {
  const root = scratch();
  const outside = scratch('hearth-outside-');
  for (const name of ['keep.txt', sha('x'), 'deadbeef']) writeFileSync(join(outside, name), 'precious');
  mkdirSync(join(root, '.hearth', 'changes'), { recursive: true });
  symlinkSync(outside, join(root, '.hearth', 'changes', 'blobs'));
  const { edit, journal, warnings } = open(root);
  await edit('a.md', 'agent text');
  await journal.prune();
  assert.deepEqual(readdirSync(outside).sort(), ['deadbeef', sha('x'), 'keep.txt'].sort());
  assert.ok(readdirSync(outside).every((name) => readFileSync(join(outside, name), 'utf8') === 'precious'));
  assert.ok(lstatSync(join(root, '.hearth', 'changes', 'blobs')).isDirectory());
  assert.ok(existsSync(join(root, '.hearth', 'changes', 'blobs', sha('agent text'))), 'the blob is in the kiln');
  assert.match(warnings.join('\n'), /blobs was a symbolic link/);
});

test('a shipped entries -> outside link: no entry is written to or read from outside', async () => {
  const root = scratch();
  const outside = scratch('hearth-outside-');
  writeFileSync(join(outside, '99991231-235959999-000001-ffffffff.json'), JSON.stringify({ id: 'x', path: 'a.md' }));
  mkdirSync(join(root, '.hearth', 'changes'), { recursive: true });
  symlinkSync(outside, join(root, '.hearth', 'changes', 'entries'));
  const { edit, journal } = open(root);
  await edit('a.md', 'agent text');
  assert.deepEqual(readdirSync(outside), ['99991231-235959999-000001-ffffffff.json']);
  assert.deepEqual((await journal.list()).map((row) => row.path), ['a.md']);
  assert.ok(lstatSync(join(root, '.hearth', 'changes', 'entries')).isDirectory());
});

test('a forged newest entry aimed at .git/config is never offered for undo, and .git/config is never written', async () => {
  const root = scratch();
  const config = '[core]\n\trepositoryformatversion = 0\n';
  const planted = '[core]\n\tfsmonitor = "touch /tmp/pwned"\n';
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), config);
  const { edit, journal, warnings } = open(root);
  await edit('a.md', 'agent text', 'real-turn');
  const dir = join(root, '.hearth', 'changes');
  writeFileSync(join(dir, 'blobs', sha(planted)), planted);
  const forged = { time: '2099-12-31T23:59:59.999Z', turn: 'zzz', tool: 'update_note', agent: 'kiln', path: '.git/config', kind: 'update', before: sha(planted), after: sha(config), state: 'done', size: 10 };
  // Both an id of the old shape and one of the signed shape with a made-up tag sort as the newest.
  for (const id of ['20991231-235959999-999999-ffffffff', '20991231-235959999-999999-ffffffff-0123456789abcdef']) {
    writeFileSync(join(dir, 'entries', `${id}.json`), JSON.stringify({ id, ...forged, mac: 'f'.repeat(64) }));
  }
  const rows = await journal.list();
  assert.deepEqual(rows.map((row) => row.path), ['a.md']);
  const turn = newestTurn(rows);
  assert.deepEqual(turn.map((row) => row.turn), ['real-turn']);
  await applyUndo(journal, confinedKilnFiles(root), await planUndo(journal, confinedKilnFiles(root), turn));
  assert.equal(readFileSync(join(root, '.git', 'config'), 'utf8'), config);
  assert.match(warnings.join('\n'), /ignored 2 journal entries .* did not write/);
  // With the user's only change undone, nothing is left to offer.
  assert.throws(() => newestTurn(rows.map((row) => ({ ...row, state: 'undone' as const }))), (error) => isHearthError(error) && error.code === 'changes.nothing_to_undo');
});

test('an entry of this user edited afterwards (a pulled commit) fails its signature and is skipped', async () => {
  const root = scratch();
  const { edit, journal, warnings } = open(root);
  await edit('a.md', 'agent text');
  const entries = join(root, '.hearth', 'changes', 'entries');
  const [name] = readdirSync(entries);
  const record = JSON.parse(readFileSync(join(entries, name), 'utf8'));
  writeFileSync(join(entries, name), JSON.stringify({ ...record, path: '.git/config' }));
  assert.deepEqual(await journal.list(), []);
  assert.match(warnings.join('\n'), /signature does not match/);
});

test('50,000 shipped entries dated 2099 with huge sizes: ignored, cannot drop history, and pruned by their file age', { timeout: 120_000 }, async () => {
  const root = scratch();
  const keyDir = scratch('hearth-key-');
  const { edit, journal } = open(root, { maxMb: 1, keyDir });
  await edit('mine-1.md', 'first', 'u1');
  await edit('mine-2.md', 'second', 'u2');
  const entries = join(root, '.hearth', 'changes', 'entries');
  const old = new Date(Date.now() - 90 * 86_400_000);
  for (let i = 0; i < 50_000; i++) {
    const id = `20991231-235959999-${String(i).padStart(6, '0')}-ffffffff`;
    const file = join(entries, `${id}.json`);
    writeFileSync(file, JSON.stringify({ id, time: '2099-12-31T23:59:59.999Z', turn: `f${i}`, tool: 'update_note', path: `n${i}.md`, kind: 'create', before: null, after: null, state: 'done', size: 2 ** 40 }));
    // The first 1,000 by name are old files (a clone made long ago).
    if (i < 1_000) utimesSync(file, old, old);
  }
  // A fresh process: its first edit prunes.
  const fresh = open(root, { maxMb: 1, keyDir });
  await fresh.edit('mine-3.md', 'third', 'u3');
  assert.deepEqual((await fresh.journal.list()).map((row) => row.path), ['mine-1.md', 'mine-2.md', 'mine-3.md'], 'forged sizes dropped no history');
  const left = readdirSync(entries).filter((name) => name.startsWith('20991231-'));
  assert.equal(left.length, 49_000, 'the old forged files went; the new ones are ignored until they age');
  assert.ok(!left.includes('20991231-235959999-000000-ffffffff.json'));
  assert.match(fresh.warnings.join('\n'), /ignored 50000 journal entries/);
  assert.equal((await journal.list()).length, 3);
});

test('leftover temp files of a killed writer are removed by the next writer; fresh ones and other files stay', async () => {
  const root = scratch();
  const { edit, journal } = open(root);
  await edit('a.md', 'v1');
  const old = new Date(Date.now() - 3_600_000);
  const entries = join(root, '.hearth', 'changes', 'entries');
  const blobs = join(root, '.hearth', 'changes', 'blobs');
  const leftovers = [join(root, '.a.md.0123456789ab.hearth-tmp'), join(entries, '20260101-000000000-000001-deadbeef.json.0123456789ab.tmp'), join(blobs, `${sha('x')}.0123456789ab.tmp`)];
  const fresh = [join(root, '.b.md.0123456789ab.hearth-tmp'), join(entries, '20260101-000000000-000002-deadbeef.json.0123456789ab.tmp')];
  const foreign = [join(blobs, 'notes.txt'), join(root, 'notes.hearth-tmp')];
  for (const file of [...leftovers, ...fresh, ...foreign]) writeFileSync(file, 'x');
  for (const file of [...leftovers, ...foreign]) utimesSync(file, old, old);
  // The next writer: a note written in the same folder, and the journal's prune.
  await new ConfinedRoot(root).write('c.md', 'new note');
  await journal.prune();
  for (const file of leftovers) assert.equal(existsSync(file), false, file);
  for (const file of [...fresh, ...foreign]) assert.equal(existsSync(file), true, file);
});
