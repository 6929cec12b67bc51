// Agent cards: valid and invalid ones, the section under "# System Prompt", the override order of
// the four places, and the built-in kiln agent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseAgentCard } from '../../../src/core/agents/agentCard';
import { BUILTIN_AGENT_NAME, cardDirectories, loadAgentCards, workspaceCardDirectories } from '../../../src/core/agents/agentCards';
import { tempDir, writeFiles } from './helpers';

const card = (name: string, description: string, body = 'Prompt.', extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;

test('a valid card: fields, and the section under "# System Prompt" as the prompt', () => {
  const text = card('researcher', 'Finds sources', '# About\nNot part of it.\n\n# System Prompt\nYou research.\n\nCarefully.\n\n# Notes\nAlso not.', 'model: work/gpt-4o\ntools: ["read_*", "text_search"]\ntemperature: 0.2\ntags: [research]\n');
  const result = parseAgentCard(text, '/x/researcher.md');
  assert.ok('card' in result);
  assert.deepEqual(result.card, {
    name: 'researcher',
    description: 'Finds sources',
    model: 'work/gpt-4o',
    tools: ['read_*', 'text_search'],
    temperature: 0.2,
    tags: ['research'],
    systemPrompt: 'You research.\n\nCarefully.',
    source: '/x/researcher.md',
  });
  // Without the heading the whole body is the prompt.
  const plain = parseAgentCard(card('plain', 'd', 'Just this.\n\n## Sub\nand this'), 'p.md');
  assert.ok('card' in plain && plain.card.systemPrompt === 'Just this.\n\n## Sub\nand this');
});

test('invalid cards are reported with the reason', () => {
  const cases: [string, RegExp][] = [
    ['no frontmatter at all', /no YAML frontmatter/],
    ['---\nname: [unclosed\n---\nbody', /not valid YAML/],
    ['---\nname: x\n---\nbody', /description/],
    ['---\ndescription: d\n---\nbody', /name/],
    [card('has space', 'd'), /name/],
    [card('hot', 'd', 'b', 'temperature: 3\n'), /temperature/],
    [card('t', 'd', 'b', 'tools: read_note\n'), /tools/],
  ];
  for (const [text, reason] of cases) {
    const result = parseAgentCard(text, '/cards/bad.md');
    assert.ok('problem' in result, text);
    assert.equal(result.problem.file, '/cards/bad.md');
    assert.match(result.problem.reason, reason, text);
  }
});

test('override order: global < agent_directories < <kiln>/.hearth/agents < <kiln>/agents; kiln cards never shadow built-in or user cards; invalid cards are not fatal', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const kiln = join(dir, 'kiln');
    await writeFiles(dir, {
      'global/hearth/agents/writer.md': card('writer', 'global writer'),
      'global/hearth/agents/only-global.md': card('only-global', 'g'),
      'global/hearth/agents/readme.txt': 'not a card',
      'extra/writer.md': card('writer', 'extra writer'),
      'extra/broken.md': '---\nname: broken\n---\nno description',
      'kiln/.hearth/agents/writer.md': card('writer', 'kiln hidden writer'),
      'kiln/.hearth/agents/kiln.md': card('kiln', 'my own kiln agent', 'Custom kiln prompt.'),
      'kiln/agents/writer.md': card('writer', 'kiln writer'),
      'kiln/.hearth/agents/local.md': card('local', 'kiln hidden local'),
      'kiln/agents/local.md': card('local', 'kiln local'),
    });
    const dirs = cardDirectories({ globalConfigDir: join(dir, 'global/hearth'), agentDirectories: ['../extra', join(dir, 'missing')], workspaceRoot: kiln, kilnRoot: kiln });
    assert.deepEqual(dirs, [join(dir, 'global/hearth/agents'), join(dir, 'extra'), join(dir, 'missing'), join(kiln, '.hearth/agents'), join(kiln, 'agents')]);
    const { cards, problems } = await loadAgentCards(dirs, workspaceCardDirectories(kiln));
    assert.equal(cards.get('writer')?.description, 'extra writer', 'a kiln card never replaces a user card');
    assert.equal(cards.get('writer')?.source, join(dir, 'extra/writer.md'));
    assert.equal(cards.get('local')?.description, 'kiln local', 'among kiln cards the later folder wins');
    assert.equal(cards.get('only-global')?.description, 'g');
    assert.equal(cards.get(BUILTIN_AGENT_NAME)?.source, 'builtin', 'a kiln card never replaces the built-in agent');
    assert.deepEqual(problems.map((p) => p.file), [join(dir, 'extra/broken.md'), join(kiln, '.hearth/agents/kiln.md'), join(kiln, '.hearth/agents/writer.md'), join(kiln, 'agents/writer.md')]);
    assert.match(problems[0].reason, /description/);
    assert.match(problems[1].reason, /built-in agent.*never replaces/);
    assert.match(problems[2].reason, /extra\/writer\.md/);

    // Without the workspace folders marked (a user's own directories), a later card still replaces.
    const all = await loadAgentCards(dirs);
    assert.equal(all.cards.get(BUILTIN_AGENT_NAME)?.systemPrompt, 'Custom kiln prompt.');
  } finally {
    await cleanup();
  }
});

test('with no card directories at all, the built-in kiln agent exists', async () => {
  const { cards, problems } = await loadAgentCards(['/nonexistent/hearth/agents']);
  assert.deepEqual([...cards.keys()], [BUILTIN_AGENT_NAME]);
  assert.equal(cards.get(BUILTIN_AGENT_NAME)?.source, 'builtin');
  assert.deepEqual(problems, []);
});

test('agent_directories: ~ is the home folder, relative entries resolve from the workspace root', () => {
  const dirs = cardDirectories({ globalConfigDir: '/cfg/hearth', agentDirectories: ['~/agents', '~', 'team/agents'], home: '/home/me', workspaceRoot: '/ws', kilnRoot: '/ws/notes' });
  assert.deepEqual(dirs, ['/cfg/hearth/agents', '/home/me/agents', '/home/me', '/ws/team/agents', '/ws/notes/.hearth/agents', '/ws/notes/agents']);
});
