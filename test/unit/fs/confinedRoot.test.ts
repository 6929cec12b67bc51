import assert from 'node:assert/strict';
import { chmod, link, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_RULES_FILES } from '../../../src/core/config/schema';
import { ConfinedFileError, ProtectedPathError } from '../../../src/core/fs/confinedFileError';
import { confinePath } from '../../../src/core/fs/confinedPath';
import { ConfinedRoot } from '../../../src/core/fs/confinedRoot';
import { ProtectedPaths } from '../../../src/core/fs/protectedPaths';
import { WriteGate, type ProtectedWriteRequest } from '../../../src/core/fs/writeGate';

const code = (expected: string) => (error: unknown) => (error as ConfinedFileError).code === expected;

for (const useProcFd of [true, false]) describe(`ConfinedRoot (${useProcFd ? '/proc/self/fd check' : 'portable device+inode check'}): reads and writes that never leave the root`, () => {
  let base: string;
  let root: string;
  let outside: string;
  let files: ConfinedRoot;

  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'hearth-confined-'));
    root = join(base, 'kiln');
    outside = join(base, 'outside');
    await mkdir(join(root, 'notes'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'secret.md'), 'keep out');
    await writeFile(join(root, 'notes', 'a.md'), 'hello');
    await symlink(outside, join(root, 'dir-out'));
    await symlink(join(outside, 'secret.md'), join(root, 'link-out.md'));
    await symlink(join(root, 'notes', 'a.md'), join(root, 'link-in.md'));
    await symlink(join(root, 'notes'), join(root, 'notes-alias'));
    await symlink(join(outside, 'planted.md'), join(root, 'dangling.md'));
    files = new ConfinedRoot(root, { useProcFd });
  });
  after(() => rm(base, { recursive: true, force: true }));

  test('lexical confinement: absolute, .., NUL, ~ and the root itself are refused before any disk access', () => {
    for (const path of ['/etc/passwd', '../x.md', 'a/../../x.md', 'C:\\x.md', '\\\\server\\share', '~/x.md', 'a\0b.md', '', '.', './']) {
      assert.throws(() => confinePath(path), code('fs.outside_root'), JSON.stringify(path));
    }
    assert.throws(() => confinePath('a/'.repeat(3000) + 'x.md'), code('fs.path_too_long'), 'a 6,000-character path is not built folder by folder');
    assert.throws(() => confinePath(`${'é'.repeat(128)}.md`), code('fs.path_too_long'), 'a name over 255 bytes');
    assert.deepEqual(confinePath('./notes//a.md').segments, ['notes', 'a.md']);
    assert.equal(confinePath('notes\\a.md').relative, 'notes/a.md');
  });

  test('reads: inside works; a link out (file or parent folder) is refused on the opened descriptor', async () => {
    assert.equal((await files.readText('notes/a.md')).text, 'hello');
    assert.equal((await files.readText('notes-alias/a.md')).text, 'hello', 'a linked folder that stays inside is fine');
    await assert.rejects(files.read('dir-out/secret.md'), code('fs.link_escape'));
    await assert.rejects(files.read('link-out.md'), code('fs.symlink_refused'));
    await assert.rejects(files.read('link-in.md'), code('fs.symlink_refused'), 'notes are never links (O_NOFOLLOW)');
    await assert.rejects(files.read('missing.md'), code('fs.not_found'));
    await assert.rejects(files.read('notes'), code('fs.not_a_file'));
    await assert.rejects(files.read('notes/a.md', { maxBytes: 2 }), code('fs.too_large'));
  });

  test('the ACP flavour follows a file link only when it stays inside', async () => {
    const workspace = new ConfinedRoot(root, { followInnerFileLinks: true, useProcFd });
    assert.equal((await workspace.readText('link-in.md')).text, 'hello');
    await assert.rejects(workspace.read('link-out.md'), code('fs.link_escape'));
  });

  test('a FIFO planted as a note is refused without hanging', async () => {
    execFileSync('mkfifo', [join(root, 'fifo.md')]);
    await assert.rejects(files.read('fifo.md'), code('fs.not_a_file'));
  });

  test('writes are atomic, create missing folders, keep the mode, and leave no temp files', async () => {
    await files.write('deep/er/new.md', 'fresh', 'create');
    assert.equal(await readFile(join(root, 'deep', 'er', 'new.md'), 'utf8'), 'fresh');
    await chmod(join(root, 'deep', 'er', 'new.md'), 0o750);
    await files.write('deep/er/new.md', 'second', 'replace');
    assert.equal((await stat(join(root, 'deep', 'er', 'new.md'))).mode & 0o777, 0o750);
    await assert.rejects(files.write('deep/er/new.md', 'x', 'create'), code('fs.exists'));
    await assert.rejects(files.write('deep/er/none.md', 'x', 'replace'), code('fs.not_found'));
    assert.deepEqual((await readdir(join(root, 'deep', 'er'))).sort(), ['new.md']);
  });

  test('writes never go through links: out through a folder, onto a link, onto a dangling link', async () => {
    await assert.rejects(files.write('dir-out/x.md', 'pwned'), code('fs.link_escape'));
    await assert.rejects(files.write('dir-out/sub/x.md', 'pwned'), code('fs.link_escape'));
    await assert.rejects(files.write('link-out.md', 'pwned'), code('fs.symlink_refused'));
    await assert.rejects(files.write('dangling.md', 'pwned'), code('fs.symlink_refused'));
    assert.deepEqual(await readdir(outside), ['secret.md']);
    assert.equal(await readFile(join(outside, 'secret.md'), 'utf8'), 'keep out');
  });

  test('a hard link to an outside file is replaced, never written in place', async () => {
    await writeFile(join(outside, 'hard.md'), 'outside original');
    await link(join(outside, 'hard.md'), join(root, 'hard.md'));
    await files.write('hard.md', 'new content', 'replace');
    assert.equal(await readFile(join(outside, 'hard.md'), 'utf8'), 'outside original');
    assert.equal(await readFile(join(root, 'hard.md'), 'utf8'), 'new content');
  });

  test('remove deletes the entry (a link itself, never its target); listing does not follow links', async () => {
    await symlink(join(outside, 'secret.md'), join(root, 'to-remove.md'));
    assert.equal(await files.remove('to-remove.md'), true);
    assert.equal(await readFile(join(outside, 'secret.md'), 'utf8'), 'keep out');
    assert.equal(await files.remove('never-there.md'), false);
    await assert.rejects(files.remove('dir-out/secret.md'), code('fs.link_escape'));
    const dir = await files.directory('');
    assert.ok(dir);
    const names = (await dir.entries()).map((e) => e.name);
    assert.ok(names.includes('notes'));
    assert.equal(await dir.child('dir-out'), undefined, 'a linked folder is not opened by the walk');
    await dir.close();
  });
});

describe('WriteGate: confine → protected check → beforeWrite hook → atomic write', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-gate-'));
    await mkdir(join(root, 'notes'));
    await symlink(join(root, '.hearth'), join(root, 'notes', 'cfg'));
    await mkdir(join(root, '.hearth'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  const gate = (confirm?: (request: ProtectedWriteRequest) => Promise<boolean | undefined>) =>
    new WriteGate({ files: new ConfinedRoot(root), protectedPaths: new ProtectedPaths({ root, rulesFiles: DEFAULT_RULES_FILES }), ...(confirm ? { confirmProtected: confirm } : {}) });

  test('a protected path is refused where nobody can be asked, declined when the user says no, written when allowed', async () => {
    await assert.rejects(gate().write('.HEARTH/agents/x.md', 'x'), (error) => error instanceof ProtectedPathError && error.code === 'fs.protected_unconfirmed' && /\.HEARTH\/agents\/x\.md/.test(error.message));
    await assert.rejects(gate(async () => undefined).write('agents/kiln.md', 'x'), (error) => (error as ProtectedPathError).code === 'fs.protected_unconfirmed');
    const asked: ProtectedWriteRequest[] = [];
    await assert.rejects(gate(async (r) => (asked.push(r), false)).write('AGENTS.md', 'x', { actor: 'claude' }), (error) => (error as ProtectedPathError).code === 'fs.protected_declined');
    assert.deepEqual(asked.map((r) => [r.path, r.action, r.actor]), [['AGENTS.md', 'create', 'claude']]);
    assert.match(asked[0].reason, /rules file/);
    await assert.rejects(stat(join(root, 'AGENTS.md')));
    await gate(async () => true).write('AGENTS.md', 'allowed');
    assert.equal(await readFile(join(root, 'AGENTS.md'), 'utf8'), 'allowed');
  });

  test('a link in a parent folder cannot smuggle a write into a protected path', async () => {
    await assert.rejects(gate(async () => true).write('notes/cfg/config.toml', '[[mcp.servers]]'), (error) => (error as ProtectedPathError).code === 'fs.protected_unconfirmed');
    await assert.rejects(stat(join(root, '.hearth', 'config.toml')));
  });

  test('the beforeWrite hook sees the change and decides: a throw stops the write, apply writes', async () => {
    const seen: string[] = [];
    await assert.rejects(
      gate().write('notes/hooked.md', 'after', { beforeWrite: async (change) => { seen.push(`${change.path}:${change.before === null}:${Buffer.from(change.after!).toString()}`); throw new Error('rejected by review'); } }),
      /rejected by review/,
    );
    await assert.rejects(stat(join(root, 'notes', 'hooked.md')));
    await gate().write('notes/hooked.md', 'after', { beforeWrite: async (_change, apply) => apply() });
    await gate().remove('notes/hooked.md', { beforeWrite: async (change, apply) => { seen.push(`delete:${Buffer.from(change.before!).toString()}`); await apply(); } });
    assert.deepEqual(seen, ['notes/hooked.md:true:after', 'delete:after']);
    await assert.rejects(stat(join(root, 'notes', 'hooked.md')));
  });
});
