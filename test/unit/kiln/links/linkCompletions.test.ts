// `[[` completion: titles, file names and aliases ranked by the composer's ranking, each note once,
// inserting the shortest unambiguous name; `#` headings and `#^` blocks of the named note.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNote } from '../../../../src/core/kiln/note';
import { fragmentCompletions, wikiCompletions } from '../../../../src/core/kiln/links/linkCompletions';
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
