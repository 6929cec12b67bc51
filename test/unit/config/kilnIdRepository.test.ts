// kiln_id derived from the repository: kilns below the root, linked worktrees and submodules
// (`.git` as a file), and a hostile `.git` in the kiln folder.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { folderKilnId, resolveKilnId } from '../../../src/core/index/kilnId';

const origin = (url: string) => `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;

function scratch(): { root: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'hearth-kilnid-repo-'));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

test('two kilns in one repository get two namespaces; every clone agrees on each; the root kiln keeps the bare id', async () => {
  const s = scratch();
  try {
    for (const [clone, url] of [['alice', 'git@github.com:team/mono.git'], ['bob', 'https://bob:ghp_token@github.com/team/mono']]) {
      mkdirSync(join(s.root, clone, '.git'), { recursive: true });
      mkdirSync(join(s.root, clone, 'docs', 'handbook'), { recursive: true });
      mkdirSync(join(s.root, clone, 'research'));
      writeFileSync(join(s.root, clone, '.git', 'config'), origin(url));
    }
    const ids = async (clone: string) => [await resolveKilnId(join(s.root, clone)), await resolveKilnId(join(s.root, clone, 'docs', 'handbook')), await resolveKilnId(join(s.root, clone, 'research'))];
    const alice = await ids('alice');
    assert.deepEqual(alice, ['github.com/team/mono', 'github.com/team/mono/docs/handbook', 'github.com/team/mono/research']);
    assert.deepEqual(await ids('bob'), alice, 'ssh and https clones (token stripped) agree on every kiln');
  } finally {
    s.remove();
  }
});

test('a linked worktree and a submodule (.git is a file) take their own repository remote, not the parent folder', async () => {
  const s = scratch();
  try {
    // The main checkout, and a linked worktree elsewhere whose .git file points into it.
    mkdirSync(join(s.root, 'main', '.git', 'worktrees', 'feature'), { recursive: true });
    writeFileSync(join(s.root, 'main', '.git', 'config'), origin('git@gitlab.example.com:docs/handbook.git'));
    writeFileSync(join(s.root, 'main', '.git', 'worktrees', 'feature', 'commondir'), '../..\n');
    // The linked worktree sits inside a folder that is itself a repository with another remote.
    mkdirSync(join(s.root, '.git'));
    writeFileSync(join(s.root, '.git', 'config'), origin('https://github.com/me/dotfiles'));
    mkdirSync(join(s.root, 'feature-tree'));
    writeFileSync(join(s.root, 'feature-tree', '.git'), `gitdir: ${join(s.root, 'main', '.git', 'worktrees', 'feature')}\n`);
    assert.equal(await resolveKilnId(join(s.root, 'feature-tree')), 'gitlab.example.com/docs/handbook');

    // A submodule: .git is a relative gitdir pointer into the superproject's modules.
    mkdirSync(join(s.root, 'main', '.git', 'modules', 'wiki'), { recursive: true });
    writeFileSync(join(s.root, 'main', '.git', 'modules', 'wiki', 'config'), origin('git@github.com:team/wiki.git'));
    mkdirSync(join(s.root, 'main', 'wiki'));
    writeFileSync(join(s.root, 'main', 'wiki', '.git'), 'gitdir: ../.git/modules/wiki\n');
    assert.equal(await resolveKilnId(join(s.root, 'main', 'wiki')), 'github.com/team/wiki');
  } finally {
    s.remove();
  }
});

test('hostile .git in the kiln: a huge file, a pointer to nowhere, a config without remotes: the folder\'s own id, no stall', async () => {
  const s = scratch();
  try {
    const kiln = join(s.root, 'notes');
    mkdirSync(kiln);
    writeFileSync(join(kiln, '.git'), 'gitdir: ');
    truncateSync(join(kiln, '.git'), 512 * 1024 * 1024); // sparse: 512 MB that must never be read
    const own = await folderKilnId(kiln);
    assert.equal(await resolveKilnId(kiln), own);
    writeFileSync(join(kiln, '.git'), 'gitdir: /nonexistent/place\n');
    assert.equal(await resolveKilnId(kiln), own, 'a pointer to nowhere is a repository without a remote');
    rmSync(join(kiln, '.git'));
    mkdirSync(join(kiln, '.git'));
    writeFileSync(join(kiln, '.git', 'config'), '[core]\n\tbare = false\n');
    assert.equal(await resolveKilnId(kiln), own);
  } finally {
    s.remove();
  }
});
