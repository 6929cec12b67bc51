// The note model's rules, stated once: core/kiln/note.ts parses every note, and the same note read
// through the index, the kiln tools and the CLI gives one answer (title, tags, links). Before the
// one parser, the tools said "overview" and [project, caf, not-a-tag] for the note below.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { silentLogger } from '../../../src/core/host';
import { parseNote, splitNote, wikiLinkTargets } from '../../../src/core/kiln/note';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import type { KilnTool } from '../../../src/core/kiln/tools/kilnTool';
import { runHearth } from '../cli/runHearth';
import { makeKiln, removeKiln, tinyIndex } from '../index/kilnIndexHelpers';

const OVERVIEW = [
  '---',
  'tags: [project]',
  'status: active',
  '---',
  'Opening words about the ember-lantern.',
  '',
  '## Überblick',
  'Plans for the #café, see [[Plan]] and [the log](log.md).',
  '',
  '```sh',
  'echo "#not-a-tag" #not-a-tag [[not-a-link]]',
  '```',
  '',
  '~~~',
  '# not a heading #nope',
  '~~~',
  'Inline `#code` is no tag; #2024 is a number, not a tag.',
  '### Détails',
].join('\n');

const RULES = {
  title: 'Überblick',
  tags: ['project', 'café'],
  links: ['Plan'],
};

test('the rules: first heading of any level is the title, Unicode tags, nothing read inside fenced or inline code', () => {
  const note = parseNote('overview.md', OVERVIEW);
  assert.equal(note.title, RULES.title);
  assert.deepEqual(note.tags, RULES.tags);
  assert.deepEqual(wikiLinkTargets(note), RULES.links);
  assert.deepEqual(note.links.map((l) => [l.kind, l.target]), [['wiki', 'Plan'], ['markdown', 'log.md']]);
  assert.deepEqual(note.headings.map((h) => [h.level, h.text, h.line]), [[2, 'Überblick', 7], [3, 'Détails', 18]]);
  assert.deepEqual(note.frontmatter, { tags: ['project'], status: 'active' });
  assert.equal(note.bodyStartLine, 5);
  // A frontmatter `title` wins; `tag:` is read like `tags:`; a file without headings is named by its file.
  assert.equal(parseNote('a.md', '---\ntitle: Given\ntag: solo\n---\n# Heading').title, 'Given');
  assert.deepEqual(parseNote('a.md', '---\ntag: solo\n---\ntext').tags, ['solo']);
  assert.equal(parseNote('dir/Plain name.md', 'no heading').title, 'Plain name');
});

test('writers split a note by the same frontmatter rule, keeping the body byte for byte', () => {
  const crlf = '---\r\ntitle: A\r\n---\r\nbody\r\nline\r\n';
  assert.deepEqual(splitNote(crlf), { frontmatter: { title: 'A' }, hasFrontmatter: true, body: 'body\r\nline\r\n', bodyStartLine: 4 });
  assert.deepEqual(splitNote('---\na: 1\n...\nrest'), { frontmatter: { a: 1 }, hasFrontmatter: true, body: 'rest', bodyStartLine: 4 });
  assert.equal(splitNote('---\na: 1\n---').body, '');
  const broken = '---\ntitle: [unclosed\n---\nbody';
  assert.deepEqual(splitNote(broken), { frontmatter: {}, hasFrontmatter: false, body: broken, bodyStartLine: 1 }, 'broken YAML is kept, not lost');
  assert.equal(parseNote('b.md', broken).problems[0]?.code, 'note.frontmatter');
});

let root: string;
let tools: Map<string, KilnTool>;
const json = async (name: string, args: unknown) => {
  const result = await tools.get(name)!.call(args);
  const text = (result.content[0] as { text: string }).text;
  assert.ok(!result.isError, text);
  return JSON.parse(text);
};

before(() => {
  root = makeKiln({ 'notes/overview.md': OVERVIEW, 'notes/other.md': '# Other\nnothing here #cafeteria\n' });
  mkdirSync(join(root, 'home'));
  tools = new Map(createKilnTools({ kilnRoot: root, host: { confirm: async () => true, log: silentLogger }, confirmDestructive: false }).map((t) => [t.name, t]));
});
after(() => removeKiln(root));

test('the kiln tools give the rules’ answer', async () => {
  const meta = await json('read_metadata', { path: 'notes/overview.md' });
  assert.deepEqual({ title: meta.title, tags: meta.tags, links: meta.links }, RULES);
  const byTag = await json('property_search', { properties: { tags: 'café' } });
  assert.deepEqual(byTag.notes.map((n: { path: string; title: string }) => [n.path, n.title]), [['notes/overview.md', RULES.title]]);
  for (const wrong of ['caf', 'not-a-tag', 'nope', '2024']) assert.equal((await json('property_search', { properties: { tags: wrong } })).count, 0, wrong);
  const text = await json('text_search', { query: 'ember-lantern', folder: 'notes', chunks: true });
  assert.deepEqual(text.results, [{ path: 'notes/overview.md', line: 5, text: 'Opening words about the ember-lantern.' }]);
  // One query syntax: the tool takes `/pattern/` like hearth search --mode text (linear-time engine).
  assert.deepEqual((await json('text_search', { query: '/EMBER-LAN+TERN\\./i' })).results.map((m: { startLine: number }) => m.startLine), [5]);
  const refused = await tools.get('text_search')!.call({ query: '/(a)\\1/' });
  assert.ok(refused.isError && /backreferences/.test((refused.content[0] as { text: string }).text));
});

test('the index gives the same answer (indexed title, text and property modes)', async () => {
  const index = tinyIndex(root);
  try {
    await index.update();
    const [hit] = await index.search('ember-lantern opening words', { mode: 'hybrid', limit: 1 });
    assert.deepEqual([hit.path, hit.title], ['notes/overview.md', RULES.title]);
    const [line] = await index.search('ember-lantern', { mode: 'text' });
    assert.deepEqual([line.path, line.title, line.startLine], ['notes/overview.md', RULES.title, 5]);
    const [byTag] = await index.search('tags=café', { mode: 'property' });
    assert.deepEqual([byTag.path, byTag.title], ['notes/overview.md', RULES.title]);
    for (const wrong of ['caf', 'not-a-tag']) assert.deepEqual(await index.search(`tags=${wrong}`, { mode: 'property' }), [], wrong);
  } finally {
    await index.dispose();
  }
});

test('the CLI gives the same answer (hearth search --mode property|text --json)', async () => {
  const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'home', 'config'), XDG_CACHE_HOME: join(root, 'home', 'cache') };
  const byTag = await runHearth(['search', 'tags=café', '--mode', 'property', '--json'], { cwd: root, env });
  assert.equal(byTag.code, 0, byTag.stderr);
  assert.deepEqual(JSON.parse(byTag.stdout).map((r: { path: string; title: string }) => [r.path, r.title]), [['notes/overview.md', RULES.title]]);
  const wrong = await runHearth(['search', 'tags=caf', '--mode', 'property', '--json'], { cwd: root, env });
  assert.deepEqual(JSON.parse(wrong.stdout), []);
  const text = await runHearth(['search', 'ember-lantern', '--mode', 'text', '--json'], { cwd: root, env });
  assert.deepEqual(JSON.parse(text.stdout).map((r: { path: string; title: string }) => [r.path, r.title]), [['notes/overview.md', RULES.title]]);
});
