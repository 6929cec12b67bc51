import assert from 'node:assert/strict';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentSession } from '../../../../src/core/agents/agentSession';
import { collect, createAgents, ScriptedHost, tempWorkspace, textOf } from './helpers';

describe('ACP fs/read_text_file and fs/write_text_file, confined to the workspace', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  let outside: Awaited<ReturnType<typeof tempWorkspace>>;
  const host = new ScriptedHost();
  let session: AgentSession;
  const ask = async (prompt: string) => textOf(await collect(session.prompt(prompt)));

  before(async () => {
    workspace = await tempWorkspace();
    outside = await tempWorkspace();
    await mkdir(join(workspace.dir, 'notes'));
    await writeFile(join(workspace.dir, 'notes', 'a.md'), 'one\ntwo\nthree\nfour');
    await writeFile(join(outside.dir, 'secret.txt'), 'top secret');
    await symlink(join(outside.dir, 'secret.txt'), join(workspace.dir, 'link-out.txt'));
    await symlink(outside.dir, join(workspace.dir, 'dir-out'));
    await symlink(join(outside.dir, 'created-through-link.txt'), join(workspace.dir, 'dangling'));
    await symlink(join(workspace.dir, 'notes', 'a.md'), join(workspace.dir, 'link-in.md'));
    const { agents } = createAgents();
    session = await agents.start('scripted', { host, cwd: workspace.dir });
  });
  after(async () => {
    await session.dispose();
    await workspace.cleanup();
    await outside.cleanup();
  });

  test('reads inside the workspace, whole or by line and limit, also through a symlink that stays inside', async () => {
    assert.equal(await ask(`read ${join(workspace.dir, 'notes', 'a.md')}`), 'read:one\ntwo\nthree\nfour');
    assert.equal(await ask(`read ${join(workspace.dir, 'notes', 'a.md')} 2 2`), 'read:two\nthree');
    assert.equal(await ask(`read ${join(workspace.dir, 'link-in.md')}`), 'read:one\ntwo\nthree\nfour');
  });

  test('traversal, other absolute paths and symlinks out are refused', async () => {
    for (const path of [
      join(workspace.dir, '..', 'x.txt'),
      `${workspace.dir}/notes/../../${outside.dir.split('/').pop()}/secret.txt`,
      join(outside.dir, 'secret.txt'),
      '/etc/passwd',
      join(workspace.dir, 'link-out.txt'),
      join(workspace.dir, 'dir-out', 'secret.txt'),
    ]) {
      const reply = await ask(`read ${path}`);
      assert.match(reply, /^error:-32602:.*outside the workspace/, `${path}: ${reply}`);
      assert.doesNotMatch(reply, /top secret/);
    }
    assert.match(await ask(`read ${join(workspace.dir, 'missing.md')}`), /^error:-32002:/);
  });

  test('writes a new file without asking; refuses writes out, including through a dangling link', async () => {
    assert.equal(await ask(`write ${join(workspace.dir, 'new', 'b.md')} fresh note`), 'wrote');
    assert.equal(await readFile(join(workspace.dir, 'new', 'b.md'), 'utf8'), 'fresh note');
    assert.equal(host.asked.length, 0);
    for (const path of [join(workspace.dir, '..', 'escaped.md'), join(workspace.dir, 'dir-out', 'x.md'), join(workspace.dir, 'link-out.txt'), join(workspace.dir, 'dangling')]) {
      assert.match(await ask(`write ${path} pwned`), /^error:-32602:.*outside the workspace/, path);
    }
    assert.equal(await readFile(join(outside.dir, 'secret.txt'), 'utf8'), 'top secret');
    assert.ok(!existsSync(join(outside.dir, 'created-through-link.txt')));
    assert.ok(!existsSync(join(outside.dir, 'x.md')));
  });

  test('overwriting asks first (confirm_destructive); a reject leaves the file as it was', async () => {
    const target = join(workspace.dir, 'notes', 'a.md');
    host.answer = () => ({ outcome: 'selected', optionId: 'reject' });
    assert.match(await ask(`write ${target} replaced`), /^error:-32602:.*declined: Overwrite the file "notes\/a\.md"/);
    assert.equal(await readFile(target, 'utf8'), 'one\ntwo\nthree\nfour');
    assert.equal(host.asked.length, 1);
    assert.match(host.asked[0].title, /overwrite notes\/a\.md/);

    host.answer = () => ({ outcome: 'selected', optionId: 'allow' });
    assert.equal(await ask(`write ${target} replaced`), 'wrote');
    assert.equal(await readFile(target, 'utf8'), 'replaced');
  });

  test('with confirm_destructive off, overwrites go ahead without asking', async () => {
    const quiet = new ScriptedHost(() => assert.fail('must not ask'));
    const { agents } = createAgents({ confirmDestructive: false });
    const other = await agents.start('scripted', { host: quiet, cwd: workspace.dir });
    try {
      const reply = textOf(await collect(other.prompt(`write ${join(workspace.dir, 'new', 'b.md')} overwritten`)));
      assert.equal(reply, 'wrote');
      assert.equal(await readFile(join(workspace.dir, 'new', 'b.md'), 'utf8'), 'overwritten');
    } finally {
      await other.dispose();
    }
  });

  test('a file larger than max_message_size is not read (the reply would be over the limit)', async () => {
    await writeFile(join(workspace.dir, 'big.md'), 'y'.repeat(4096));
    const { agents } = createAgents({ limits: { maxMessageBytes: 2048 } });
    const small = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      const reply = textOf(await collect(small.prompt(`read ${join(workspace.dir, 'big.md')}`)));
      assert.match(reply, /^error:-32602:.*over the 2048-byte message limit/);
    } finally {
      await small.dispose();
    }
  });
});
