import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_RULES_FILES } from '../../../src/core/config/schema';
import { normalizeSegment, ProtectedPaths } from '../../../src/core/fs/protectedPaths';

describe('protected paths (DESIGN.md decision 15)', () => {
  const rules = new ProtectedPaths({ root: '/k', rulesFiles: [...DEFAULT_RULES_FILES, 'docs/RULES.txt'], agentDirectories: ['/cards', '/k/team-cards'], otherRoots: ['/ws'] });

  test('the built-in list, every segment compared case-insensitively without trailing dots and spaces', () => {
    for (const path of [
      '.hearth/config.toml',
      '.hearth/agents/x.md',
      '.HEARTH/agents/x.md',
      '.Hearth./config.toml',
      '.hearth /config.toml',
      'agents/kiln.md',
      'AGENTS/kiln.md',
      'AGENTS.md',
      'agents.md',
      'sub/AGENTS.md',
      '.rules',
      '.git/hooks/pre-commit',
      '.GIT/config',
      'vendor/lib/.git/hooks/post-checkout',
      '.vscode/tasks.json',
      '.VSCode/settings.json',
      '.github/copilot-instructions.md',
      '.GitHub/Copilot-Instructions.MD',
      '.claude/settings.json',
      '.claude/hooks/x.sh',
      '.mcp.json',
      '.MCP.json.',
      '.gemini/settings.json',
      '.codex/config.toml',
      'CLAUDE.md',
      'claude.md',
      'GEMINI.md',
      'CLAUDE.md::$DATA',
      '.git::$INDEX_ALLOCATION/hooks/pre-commit',
      'docs/rules.txt',
      'team-cards/helper.md',
      '/cards/evil.md',
    ]) {
      assert.ok(rules.reason(path), `${path} should be protected`);
    }
  });

  test('ordinary notes are not protected, including look-alikes', () => {
    for (const path of ['notes/plan.md', 'agents.md.bak', 'projects/agents/notes.md', '.github/workflows/ci.yml', 'gitnotes/x.md', '.hearthstone/x.md', 'my.mcp.json.md', 'claude-notes.md', 'docs/other.txt']) {
      assert.equal(rules.reason(path), undefined, `${path} should not be protected`);
    }
  });

  test('the other root (the workspace around a kiln elsewhere) counts too, and the reason says why it matters', () => {
    assert.match(rules.reason('/ws/.hearth/config.toml') ?? '', /configures commands Hearth runs/);
    assert.match(rules.reason('/ws/agents/x.md') ?? '', /agent cards/);
    assert.match(rules.reason('.claude/settings.json') ?? '', /run commands/);
    assert.equal(rules.reason('/elsewhere/agents/x.md'), undefined);
  });

  test('segment normalization', () => {
    assert.equal(normalizeSegment('.HEARTH. . '), '.hearth');
    assert.equal(normalizeSegment('...'), '...');
  });
});
