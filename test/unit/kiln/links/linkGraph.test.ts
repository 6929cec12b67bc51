import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNote } from '../../../../src/core/kiln/note';
import { LinkGraph } from '../../../../src/core/kiln/links/linkGraph';
import { FIXTURE, fixtureGraph } from './linkFixture';

const where = (graph: LinkGraph, source: string) => graph.outgoing(source).filter((l) => !l.ignored).map((l) => [l.target, l.path ?? null]);

test('wikilinks resolve as Obsidian resolves them: path, file name (any case, .md or not), aliases, relative', () => {
  const graph = fixtureGraph();
  assert.deepEqual(where(graph, 'Home.md'), [
    ['Watering', 'Watering.md'],
    ['garden/Compost', 'garden/Compost.md'],
    ['Soil Notes', 'Soil Notes.md'],
    ['Black Gold', 'garden/Compost.md'],
    ['watering', 'Watering.md'],
    ['Watering.md', 'Watering.md'],
    ['Café Menu', 'Café Menu.md'],
    ['Ideas', 'a/Ideas.md'],
    ['Plan', 'Plan.md'],
    ['projects/Plan', 'projects/Plan.md'],
    ['Nowhere', null],
    ['Soil%20Notes.md', 'Soil Notes.md'],
    ['Watering', 'Watering.md'],
    ['Watering', 'Watering.md'],
  ]);
  assert.deepEqual(where(graph, 'Café Menu.md'), [['./Watering', 'Watering.md']]);
  assert.deepEqual(where(graph, 'Soil Notes.md'), [['home', 'Home.md']]);
});

test('links in code (fenced or inline) are no links; URLs and attachments are neither links nor unresolved', () => {
  const graph = fixtureGraph();
  const targets = graph.outgoing('Home.md').map((l) => l.target);
  assert.ok(!targets.includes('InlineCode') && !targets.includes('Fenced'));
  assert.deepEqual(graph.unresolved('Home.md').map((l) => l.target), ['Nowhere']);
  assert.deepEqual(graph.outgoing('Home.md').filter((l) => l.ignored).map((l) => l.target), ['pic.png', 'https://example.com', 'pic.png']);
});

test('an ambiguous name is reported with every candidate, shortest first; the exact path wins without ambiguity', () => {
  const graph = fixtureGraph();
  const ideas = graph.outgoing('Home.md').find((l) => l.target === 'Ideas')!;
  assert.deepEqual(ideas.ambiguous, ['a/Ideas.md', 'b/deep/Ideas.md']);
  const plan = graph.outgoing('Home.md').find((l) => l.target === 'Plan')!;
  assert.equal(plan.ambiguous, undefined);
});

test('headings, blocks, aliases and embeds are kept with each link; fragments point at lines', () => {
  const graph = fixtureGraph();
  const links = graph.outgoing('Home.md');
  const compost = links.find((l) => l.target === 'garden/Compost')!;
  assert.equal(compost.fragment, 'Browns and greens');
  assert.equal(graph.fragmentLine('garden/Compost.md', compost.fragment!), 5);
  const block = links.find((l) => l.target === 'Soil Notes' && l.kind === 'wiki')!;
  assert.equal(block.fragment, '^ph-table');
  assert.equal(graph.fragmentLine('Soil Notes.md', '^ph-table'), 4);
  const embed = links.find((l) => l.embed && l.target === 'Watering')!;
  assert.equal(graph.fragmentLine('Watering.md', embed.fragment!), 3);
  assert.equal(links.find((l) => l.alias)?.alias, 'the watering page');
  assert.equal(graph.fragmentLine('Watering.md', 'No such heading'), undefined);
});

test('backlinks carry their line of context, in source order', () => {
  const graph = fixtureGraph();
  const back = graph.backlinks('Watering.md');
  assert.deepEqual([...new Set(back.map((b) => b.source))], ['Café Menu.md', 'Home.md']);
  assert.equal(back.filter((b) => b.source === 'Home.md').length, 5);
  assert.equal(back[0].context, 'Soup of the day: see [[./Watering]].');
  assert.equal(back[0].line, 2);
  assert.deepEqual(graph.backlinks('garden/Compost.md').map((b) => b.target), ['garden/Compost', 'Black Gold']);
});

test('incremental: adding a note resolves the links waiting for it and re-decides ambiguity', () => {
  const graph = fixtureGraph();
  graph.set(parseNote('Nowhere.md', '# Nowhere\n'));
  assert.deepEqual(graph.unresolved('Home.md'), []);
  assert.equal(graph.backlinks('Nowhere.md')[0].source, 'Home.md');
  // A third Ideas at the root is now the exact path: no longer ambiguous.
  graph.set(parseNote('Ideas.md', '# Ideas\n'));
  const ideas = graph.outgoing('Home.md').find((l) => l.target === 'Ideas')!;
  assert.equal(ideas.path, 'Ideas.md');
  assert.equal(ideas.ambiguous, undefined);
  assert.deepEqual(graph.backlinks('a/Ideas.md'), []);
});

test('incremental: changing, renaming and deleting notes moves backlinks with them', () => {
  const graph = fixtureGraph();
  // Change: the alias moves from Compost to Soil Notes.
  graph.set(parseNote('garden/Compost.md', FIXTURE['garden/Compost.md'].replace('Black Gold, ', '')));
  assert.equal(graph.outgoing('Home.md').find((l) => l.target === 'Black Gold')!.path, undefined);
  graph.set(parseNote('Soil Notes.md', `---\naliases: Black Gold\n---\n${FIXTURE['Soil Notes.md']}`));
  assert.equal(graph.outgoing('Home.md').find((l) => l.target === 'Black Gold')!.path, 'Soil Notes.md');
  // Rename: the name-based links follow only when the name still matches.
  graph.rename('Watering.md', 'garden/Watering.md');
  assert.equal(graph.backlinks('garden/Watering.md').filter((b) => b.source === 'Home.md').length, 5);
  assert.equal(graph.outgoing('Watering.md').length, 0);
  assert.deepEqual(graph.outgoing('garden/Watering.md').map((l) => l.path), ['Home.md']);
  // The relative link from Café Menu no longer finds it.
  assert.equal(graph.outgoing('Café Menu.md')[0].path, undefined);
  graph.rename('garden/Watering.md', 'garden/Irrigation.md');
  assert.equal(graph.backlinks('garden/Irrigation.md').length, 0);
  assert.ok(graph.unresolved('Home.md').some((l) => l.target === 'Watering'));
  // Delete: links to it become unresolved; its own links leave the backlinks of others.
  graph.remove('Home.md');
  assert.deepEqual(graph.backlinks('Soil Notes.md'), []);
  assert.equal(graph.outgoing('Soil Notes.md')[0].path, undefined);
  assert.equal(graph.has('Home.md'), false);
});

test('an update of one note equals a fresh build (no stale backlinks)', () => {
  const graph = fixtureGraph();
  const changed = { ...FIXTURE, 'Home.md': 'Only [[Plan]] now, and [[Soil Notes]].', 'New.md': 'See [[Nowhere]] [[Ideas]]' };
  graph.set(parseNote('Home.md', changed['Home.md']));
  graph.set(parseNote('New.md', changed['New.md']));
  const fresh = fixtureGraph(changed);
  for (const path of Object.keys(changed)) {
    assert.deepEqual(graph.backlinks(path), fresh.backlinks(path), path);
    assert.deepEqual(graph.outgoing(path), fresh.outgoing(path), path);
  }
});

test('linkName is the file name when unique, the path when the name is shared', () => {
  const graph = fixtureGraph();
  assert.equal(graph.linkName('Watering.md'), 'Watering');
  assert.equal(graph.linkName('a/Ideas.md'), 'a/Ideas');
});

test('a kiln handed over at once (setAll) is the same graph as one built note by note', () => {
  const one = fixtureGraph();
  const all = new LinkGraph();
  all.setAll(Object.entries(FIXTURE).map(([path, text]) => parseNote(path, text)));
  for (const path of Object.keys(FIXTURE)) {
    assert.deepEqual(all.outgoing(path), one.outgoing(path), path);
    assert.deepEqual(all.backlinks(path), one.backlinks(path), path);
  }
  // And it keeps updating incrementally afterwards.
  all.set(parseNote('Nowhere.md', '# Nowhere'));
  assert.deepEqual(all.unresolved('Home.md'), []);
});
