/**
 * Agent cards in the kiln (`agents/`, `.hearth/agents/`) become system prompts sent to the provider,
 * like rules files (finding 5's class): a cloned repository's card folder linked out of the kiln, or a
 * card that is a link to an outside file, is not read; the problem names it. Cards inside still load.
 */
import assert from 'node:assert/strict';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadAgentCards, workspaceCardDirectories } from '../../../src/core/agents/agentCards';
import { tempDir, writeFiles } from '../agents/helpers';

const card = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} card\n---\n${body}\n`;

test('a kiln card folder or card linked out of the kiln is not read; the problem says where it leads', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    await writeFiles(dir, {
      'home/private/diary.md': card('diary', 'OUTSIDE-SECRET private diary'),
      'home/card.md': card('planted', 'OUTSIDE-SECRET planted card'),
      'kiln/.hearth/agents/helper.md': card('helper', 'You help.'),
    });
    await symlink('../home/private', join(dir, 'kiln/agents'));
    await symlink('../../../home/card.md', join(dir, 'kiln/.hearth/agents/planted.md'));
    await mkdir(join(dir, 'kiln/notes'));
    const kiln = join(dir, 'kiln');
    const { cards, problems } = await loadAgentCards(workspaceCardDirectories(kiln), workspaceCardDirectories(kiln));
    assert.deepEqual([...cards.keys()].sort(), ['helper', 'kiln']);
    for (const c of cards.values()) assert.doesNotMatch(c.systemPrompt, /OUTSIDE-SECRET/);
    assert.deepEqual(problems.map((p) => p.file), [join(kiln, 'agents')]);
    assert.match(problems[0]!.reason, /outside/);
  } finally {
    await cleanup();
  }
});

test('a card folder linked inside the kiln still loads', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    await writeFiles(dir, { 'kiln/team/cards/writer.md': card('writer', 'You write.') });
    await symlink('team/cards', join(dir, 'kiln/agents'));
    const kiln = join(dir, 'kiln');
    const { cards, problems } = await loadAgentCards(workspaceCardDirectories(kiln), workspaceCardDirectories(kiln));
    assert.deepEqual(problems, []);
    assert.equal(cards.get('writer')?.systemPrompt, 'You write.');
  } finally {
    await cleanup();
  }
});
