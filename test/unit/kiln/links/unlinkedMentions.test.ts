import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNote } from '../../../../src/core/kiln/note';
import { mentionLink, mentionNames, mentionPattern, mentionsIn } from '../../../../src/core/kiln/links/unlinkedMentions';
import { readKilnLinks } from '../../../../src/core/kiln/links/kilnLinks';
import { makeKiln, removeKiln } from '../../index/kilnIndexHelpers';

const RULES = { exclude: [], max_file_size_kb: 1024 };

test('mentions are whole words, any case, not in frontmatter, code or existing links', () => {
  const names = mentionNames({ path: 'garden/Compost Tea.md', title: 'Compost Tea', aliases: ['Wurmtee', 'ct'] });
  assert.deepEqual(names, ['Compost Tea', 'Wurmtee']);
  const note = parseNote('n.md', [
    '---',
    'title: compost tea notes',
    '---',
    'Brew COMPOST  TEA weekly.',
    'Compost teas and compost-tea-ish things do not count; wurmtee does.',
    'Already linked: [[Compost Tea]], [compost tea](garden/Compost%20Tea.md).',
    '`compost tea` in code, and:',
    '```',
    'compost tea',
    '```',
    'Über Wurmtee.',
  ].join('\n'));
  const found = mentionsIn(note, mentionPattern(names)!);
  assert.deepEqual(found.map((m) => [m.line, m.column, m.text]), [[4, 5, 'COMPOST  TEA'], [5, 54, 'wurmtee'], [11, 5, 'Wurmtee']]);
});

test('mentionLink keeps the sentence: alias text when the words differ from the name', () => {
  assert.equal(mentionLink('a/Compost.md', 'Compost', 'Compost'), '[[Compost]]');
  assert.equal(mentionLink('a/Compost.md', 'Compost', 'compost'), '[[Compost|compost]]');
});

test('KilnLinks finds unlinked mentions across the kiln, reading notes confined', async () => {
  const root = makeKiln({
    'Compost.md': '# Compost\n',
    'a.md': 'We compost here. [[Compost]] is linked.\n',
    'b.md': 'Nothing here.\n',
    'c.md': '```\ncompost\n```\n',
  });
  try {
    const links = await readKilnLinks(root, RULES);
    const mentions = await links.unlinkedMentions('Compost.md');
    assert.deepEqual(mentions.map((m) => [m.source, m.line, m.column]), [['a.md', 1, 3]]);
  } finally {
    removeKiln(root);
  }
});
