// The first build of a kiln's graph in slices (the editor yields between them), with each target
// name resolved once for all the links naming it: the same graph as one built note by note, hostile
// links included, and no change handed over meanwhile lost.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseNote } from '../../../../src/core/kiln/note';
import { LinkGraph } from '../../../../src/core/kiln/links/linkGraph';
import { KilnLinks } from '../../../../src/core/kiln/links/kilnLinks';
import { ConfinedRoot } from '../../../../src/core/fs/confinedRoot';
import { makeKiln, removeKiln } from '../../index/kilnIndexHelpers';
import { FIXTURE, fixtureGraph } from './linkFixture';

const RULES = { exclude: [], max_file_size_kb: 1024 };

const HOSTILE: Record<string, string> = {
  ...FIXTURE,
  'loop/A.md': '[[B]] [[A]] [[../Home]] [[./B]]',
  'loop/B.md': '[[A]] [[loop/A]]',
  'escape.md': `[[../../etc/passwd]] [x](../../../etc/passwd.md) [[${'y'.repeat(100_000)}]] [[${'z'.repeat(100_000)}|alias]] [[Ideas]] [[ideas]]`,
  'passwd.md': '# not the system file',
};

test('a bulk build in slices of one note is the graph built note by note, hostile links included', () => {
  const one = fixtureGraph(HOSTILE);
  const bulk = new LinkGraph();
  const steps = [...bulk.setAllSteps(Object.entries(HOSTILE).map(([path, text]) => parseNote(path, text)), 1)];
  // One step per note registered and one per note resolved: a host can yield after each.
  assert.equal(steps.length, 2 * Object.keys(HOSTILE).length);
  for (const path of Object.keys(HOSTILE)) {
    assert.deepEqual(bulk.outgoing(path), one.outgoing(path), path);
    assert.deepEqual(bulk.backlinks(path), one.backlinks(path), path);
  }
  // Wikilinks of a line come before its markdown links.
  const escape = bulk.outgoing('escape.md');
  assert.deepEqual(escape.map((l) => [l.kind, l.target.length, l.path, l.outside]), [
    ['wiki', '../../etc/passwd'.length, undefined, true],
    ['wiki', 100_000, undefined, undefined],
    ['wiki', 100_000, undefined, undefined],
    ['wiki', 5, 'a/Ideas.md', undefined],
    ['wiki', 5, 'a/Ideas.md', undefined],
    ['markdown', '../../../etc/passwd.md'.length, undefined, true],
  ]);
  // Links sharing a name share one answer, ambiguity reported on each.
  assert.deepEqual(escape.slice(3, 5).map((l) => l.ambiguous), [['a/Ideas.md', 'b/deep/Ideas.md'], ['a/Ideas.md', 'b/deep/Ideas.md']]);
  assert.deepEqual(bulk.backlinks('loop/A.md').map((l) => l.source), ['loop/A.md', 'loop/B.md', 'loop/B.md']);
  // Incremental after the bulk build: a name that appears re-resolves the links waiting for it.
  bulk.set(parseNote('Nowhere.md', '# Nowhere'));
  assert.deepEqual(bulk.unresolved('Home.md'), []);
});

test('text handed over while the first read runs is kept, not overwritten by the file read after it', async () => {
  const root = makeKiln({ 'a.md': '[[b]]', 'b.md': '# B', 'c.md': '# C' });
  try {
    const links = new KilnLinks(new ConfinedRoot(root), RULES);
    const reading = links.refresh();
    // An open editor buffer, newer than the file on disk.
    links.setText('a.md', '[[c]]');
    writeFileSync(join(root, 'b.md'), '# B changed [[c]]');
    const updating = links.update(['b.md']);
    await reading;
    await updating;
    assert.deepEqual(links.graph.outgoing('a.md').map((l) => l.path), ['c.md']);
    assert.deepEqual(links.graph.backlinks('b.md'), []);
    assert.deepEqual(links.graph.backlinks('c.md').map((l) => l.source), ['a.md', 'b.md']);
  } finally {
    removeKiln(root);
  }
});

test('a note staged twice keeps its later text; staging into a resolved graph sets the note', () => {
  const graph = new LinkGraph();
  graph.stage(parseNote('a.md', '[[b]]'));
  graph.stage(parseNote('b.md', '---\naliases: [Bee]\n---\n# B'));
  graph.stage(parseNote('b.md', '---\naliases: [Wasp]\n---\n# B [[a]]'));
  graph.stage(parseNote('c.md', '[[Bee]] [[Wasp]]'));
  for (const _ of graph.resolveStaged(1)) {
    // One note a step.
  }
  const fresh = fixtureGraph({ 'a.md': '[[b]]', 'b.md': '---\naliases: [Wasp]\n---\n# B [[a]]', 'c.md': '[[Bee]] [[Wasp]]' });
  for (const path of ['a.md', 'b.md', 'c.md']) {
    assert.deepEqual(graph.outgoing(path), fresh.outgoing(path), path);
    assert.deepEqual(graph.backlinks(path), fresh.backlinks(path), path);
  }
  graph.stage(parseNote('d.md', '[[Wasp]]'));
  assert.equal(graph.outgoing('d.md')[0].path, 'b.md');
  assert.deepEqual(graph.backlinks('b.md').map((l) => l.source), ['a.md', 'c.md', 'd.md']);
});
