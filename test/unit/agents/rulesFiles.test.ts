// Rules files from the git root down to the workspace, outermost first, in a nested git repo,
// and their place in an internal agent's system prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_RULES_FILES } from '../../../src/core/config/schema';
import { findGitRoot, findRulesFiles, formatRules } from '../../../src/core/agents/internal/rulesFiles';
import { startInternalAgent } from '../../../src/core/agents/internal/internalAgents';
import { BUILTIN_KILN_CARD } from '../../../src/core/agents/agentCards';
import { agentDeps, mockConfig, RecordingHost, tempDir, writeFiles } from './helpers';

async function layout(root: string): Promise<string> {
  await writeFiles(root, {
    'AGENTS.md': 'OUTSIDE the repository: never loaded',
    'outer/AGENTS.md': 'outer repo rules',
    'outer/inner/AGENTS.md': 'inner root rules',
    'outer/inner/docs/.rules': 'docs rules',
    'outer/inner/docs/notes/AGENTS.md': 'workspace rules',
    'outer/inner/docs/notes/.github/copilot-instructions.md': 'copilot rules',
    'outer/inner/docs/notes/.rules': '   ',
    'outer/inner/sibling/AGENTS.md': 'a sibling directory: not on the path',
  });
  // A repository nested inside another: the nearest .git is the root.
  await mkdir(join(root, 'outer/.git'), { recursive: true });
  await mkdir(join(root, 'outer/inner/.git'), { recursive: true });
  return join(root, 'outer/inner/docs/notes');
}

test('from the nearest git root down to the workspace, outermost first, in list order per directory', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const workspace = await layout(dir);
    assert.equal(await findGitRoot(workspace), join(dir, 'outer/inner'));
    const files = await findRulesFiles(workspace, DEFAULT_RULES_FILES);
    assert.deepEqual(
      files.map((f) => [f.label, f.text]),
      [
        ['AGENTS.md', 'inner root rules'],
        ['docs/.rules', 'docs rules'],
        ['docs/notes/AGENTS.md', 'workspace rules'],
        ['docs/notes/.github/copilot-instructions.md', 'copilot rules'],
      ],
    );
    const prompt = formatRules(files);
    assert.ok(prompt.indexOf('inner root rules') < prompt.indexOf('workspace rules'), 'deeper files come later');
    assert.match(prompt, /--- docs\/notes\/AGENTS\.md ---\nworkspace rules/);

    // rules_files replaces the default list.
    assert.deepEqual((await findRulesFiles(workspace, ['.rules'])).map((f) => f.label), ['docs/.rules']);
  } finally {
    await cleanup();
  }
});

test('without a git repository only the workspace directory counts', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    await writeFiles(dir, { 'AGENTS.md': 'parent', 'ws/AGENTS.md': 'here' });
    const files = await findRulesFiles(join(dir, 'ws'), DEFAULT_RULES_FILES);
    // tmpdir itself is not in a git repository on any CI machine we use.
    assert.deepEqual(files.map((f) => f.text), ['here']);
  } finally {
    await cleanup();
  }
});

test('an internal agent has the rules in its system prompt, after the card prompt', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const workspace = await layout(dir);
    const config = mockConfig('cloud_a', 'http://127.0.0.1:9', 'big-model');
    const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: workspace }, agentDeps(config, workspace));
    const system = session.messages[0];
    assert.equal(system.role, 'system');
    assert.ok(system.content.startsWith(BUILTIN_KILN_CARD.systemPrompt));
    assert.ok(system.content.indexOf('inner root rules') < system.content.indexOf('copilot rules'));
    assert.doesNotMatch(system.content, /OUTSIDE|sibling/);
  } finally {
    await cleanup();
  }
});
