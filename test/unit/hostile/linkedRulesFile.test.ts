/**
 * Finding 5 of the third review: a cloned repository's `AGENTS.md -> ../../.aws/credentials` was read
 * into the system prompt sent to the provider (the `..`/absolute refusal of rules_files names is
 * bypassed by a link). Rules files are now read through the confined reader rooted at the git root:
 * a link leaving it — the file itself or a folder above it — is skipped with a notice, in a trusted
 * folder as in an untrusted one; a link that stays inside is still read.
 */
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { startInternalAgent } from '../../../src/core/agents/internal/internalAgents';
import { findRulesFiles, type SkippedRulesFile } from '../../../src/core/agents/internal/rulesFiles';
import { BUILTIN_KILN_CARD } from '../../../src/core/agents/agentCards';
import { loadConfig } from '../../../src/core/config/load';
import { DEFAULT_RULES_FILES } from '../../../src/core/config/schema';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';
import { agentDeps, mockConfig, RecordingHost, tempDir, writeFiles } from '../agents/helpers';

const SECRET = 'aws_secret_access_key = AKIA-OUTSIDE-SECRET';

/** A cloned repository whose rules files are links out of it, beside a "home" holding the secret. */
async function clonedRepository(dir: string): Promise<string> {
  await writeFiles(dir, {
    'home/.aws/credentials': `[default]\n${SECRET}\n`,
    'home/team/TEAM.md': `team notes\n${SECRET}\n`,
    'repo/house.md': 'inside rules: use metric units',
    'repo/notes/.hearth/config.toml': '[context]\nrules_files = ["AGENTS.md", "CLAUDE.md", "docs/TEAM.md", ".rules"]\n',
  });
  await mkdir(join(dir, 'repo/.git'));
  await symlink('../home/.aws/credentials', join(dir, 'repo/AGENTS.md'));
  await symlink('../../home/team', join(dir, 'repo/notes/docs'));
  await symlink('../house.md', join(dir, 'repo/notes/CLAUDE.md'));
  return join(dir, 'repo/notes');
}

test('a rules file linked out of the repository is skipped with a notice; one linked inside is read', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const workspace = await clonedRepository(dir);
    const skipped: SkippedRulesFile[] = [];
    const files = await findRulesFiles(workspace, ['AGENTS.md', 'CLAUDE.md', 'docs/TEAM.md'], { onSkipped: (s) => skipped.push(s) });
    assert.deepEqual(files.map((f) => [f.label, f.text]), [['notes/CLAUDE.md', 'inside rules: use metric units']]);
    assert.deepEqual(skipped.map((s) => s.label), ['AGENTS.md', 'notes/docs/TEAM.md']);
    for (const s of skipped) assert.match(s.reason, /symbolic link .*outside the repository/);
  } finally {
    await cleanup();
  }
});

for (const trusted of [false, true]) {
  test(`${trusted ? 'trusted' : 'untrusted'} folder: the linked AGENTS.md never reaches the system prompt, and the log says why`, async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const workspace = await clonedRepository(dir);
      const loaded = await loadConfig({ workspaceRoot: workspace, trusted, env: { XDG_CONFIG_HOME: join(dir, 'xdg'), HOME: join(dir, 'home') }, globalConfigPath: join(dir, 'none.toml') });
      const names = loaded.config.context.rules_files;
      assert.ok(names.includes('AGENTS.md'));
      const config = { ...mockConfig('cloud_a', 'http://127.0.0.1:9', 'big-model'), context: loaded.config.context };
      const warnings: string[] = [];
      const deps = { ...agentDeps(config, workspace), log: sinkLogger((level, message) => void (level === 'warn' && warnings.push(message))) };
      const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: workspace }, deps);
      const system = session.messages[0]!.content;
      assert.doesNotMatch(system, /AKIA-OUTSIDE-SECRET/);
      assert.match(system, /inside rules: use metric units/);
      assert.ok(warnings.some((w) => /rules file AGENTS\.md skipped: .*outside the repository/.test(w)), warnings.join('\n'));
      if (names.includes('docs/TEAM.md')) assert.ok(warnings.some((w) => /notes\/docs\/TEAM\.md skipped/.test(w)), warnings.join('\n'));
    } finally {
      await cleanup();
    }
  });
}

test('a rules file swapped between a regular file and a link out of the repository is never read through the link', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    await writeFiles(dir, { 'home/secret': SECRET, 'repo/ws/keep': '' });
    await mkdir(join(dir, 'repo/.git'));
    const target = join(dir, 'repo/AGENTS.md');
    const { rename } = await import('node:fs/promises');
    let stop = false;
    const swapper = (async () => {
      for (let i = 0; !stop; i++) {
        const temp = `${target}.${i}`;
        if (i % 2) await symlink(join(dir, 'home/secret'), temp);
        else await writeFile(temp, 'plain rules');
        await rename(temp, target);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    let leaked = 0;
    let read = 0;
    for (let i = 0; i < 300; i++) {
      const files = await findRulesFiles(join(dir, 'repo/ws'), DEFAULT_RULES_FILES);
      read += files.length;
      if (files.some((f) => f.text.includes('AKIA'))) leaked++;
    }
    stop = true;
    await swapper;
    assert.equal(leaked, 0);
    assert.ok(read > 0, 'the regular file was read at times');
  } finally {
    await cleanup();
  }
});
