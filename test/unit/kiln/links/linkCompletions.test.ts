// `[[` completion: titles, file names and aliases ranked by the composer's ranking, each note once,
// inserting the shortest unambiguous name; `#` headings and `#^` blocks of the named note.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNote } from '../../../../src/core/kiln/note';
import { fragmentCompletions, warmWikiCompletions, wikiCompletions } from '../../../../src/core/kiln/links/linkCompletions';
import { fixtureGraph } from './linkFixture';

test('names, titles and aliases complete; each note once; shared names insert the path', () => {
  const graph = fixtureGraph();
  const water = wikiCompletions(graph, 'water');
  assert.deepEqual(water[0], { path: 'Watering.md', label: 'Watering', insert: 'Watering' });
  const alias = wikiCompletions(graph, 'black g');
  assert.deepEqual(alias[0], { path: 'garden/Compost.md', label: 'Black Gold', insert: 'Compost', alias: 'Black Gold' });
  const ideas = wikiCompletions(graph, 'ideas');
  assert.deepEqual(ideas.map((c) => c.insert).sort(), ['a/Ideas', 'b/deep/Ideas']);
  const all = wikiCompletions(graph, '', 100);
  assert.equal(new Set(all.map((c) => c.path)).size, all.length, 'each note once');
  // A new note is offered at once (the names are cached per graph version).
  graph.set(parseNote('Waterfall.md', '# Waterfall'));
  assert.ok(wikiCompletions(graph, 'waterf').some((c) => c.path === 'Waterfall.md'));
});

test('after # the headings of the note, after #^ its blocks', () => {
  const graph = fixtureGraph();
  assert.deepEqual(fragmentCompletions(graph, 'garden/Compost.md', 'brow'), [{ label: 'Browns and greens', line: 5, level: 2 }]);
  assert.deepEqual(fragmentCompletions(graph, 'Soil Notes.md', '^ph'), [{ label: '^ph-table', line: 4 }]);
  assert.deepEqual(fragmentCompletions(graph, 'Nowhere.md', ''), []);
});

test('after a change the names kept from unchanged notes and the changed note\'s new ones complete as from a fresh graph', () => {
  const graph = fixtureGraph();
  wikiCompletions(graph, 'co');
  graph.set(parseNote('garden/Compost.md', '---\naliases: [Leaf Mould]\n---\n# Compost heap\n'));
  graph.remove('Watering.md');
  graph.rename('Soil Notes.md', 'ground/Soil Notes.md');
  const fresh = fixtureGraph();
  fresh.set(parseNote('garden/Compost.md', '---\naliases: [Leaf Mould]\n---\n# Compost heap\n'));
  fresh.remove('Watering.md');
  fresh.rename('Soil Notes.md', 'ground/Soil Notes.md');
  for (const typed of ['', 'co', 'black', 'leaf', 'heap', 'water', 'soil']) {
    assert.deepEqual(wikiCompletions(graph, typed, 100), wikiCompletions(fresh, typed, 100), typed);
  }
  assert.equal(wikiCompletions(graph, 'black g').length, 0);
  assert.equal(wikiCompletions(graph, 'leaf m')[0].alias, 'Leaf Mould');
  assert.deepEqual(wikiCompletions(graph, 'soil n').map((c) => c.path), ['ground/Soil Notes.md']);
});

test('names listed ahead in slices complete as those listed on the first ask; a change meanwhile is not missed', async () => {
  const graph = fixtureGraph();
  await warmWikiCompletions(graph);
  const fresh = fixtureGraph();
  for (const typed of ['', 'water', 'black', 'ideas']) assert.deepEqual(wikiCompletions(graph, typed, 100), wikiCompletions(fresh, typed, 100), typed);
  // Warmed, then changed before the first ask: the change is offered.
  const warming = warmWikiCompletions(graph);
  graph.set(parseNote('Greenhouse.md', '---\naliases: [Glasshouse]\n---\n# Greenhouse'));
  await warming;
  assert.deepEqual(wikiCompletions(graph, 'glassh')[0], { path: 'Greenhouse.md', label: 'Glasshouse', insert: 'Greenhouse', alias: 'Glasshouse' });
});
