// Hostile link graphs: every input a kiln can hold ends in bounded time, with nothing read outside it.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { parseNote } from '../../../../src/core/kiln/note';
import { LinkGraph } from '../../../../src/core/kiln/links/linkGraph';
import { readKilnLinks } from '../../../../src/core/kiln/links/kilnLinks';
import { makeKiln, removeKiln } from '../../index/kilnIndexHelpers';

const RULES = { exclude: [], max_file_size_kb: 1024 };

test('a note linking to itself, and a cycle, are ordinary backlinks', () => {
  const graph = new LinkGraph();
  graph.set(parseNote('self.md', 'I am [[self]].'));
  graph.set(parseNote('a.md', '[[b]]'));
  graph.set(parseNote('b.md', '[[a]]'));
  assert.deepEqual(graph.backlinks('self.md').map((b) => b.source), ['self.md']);
  assert.deepEqual(graph.backlinks('a.md').map((b) => b.source), ['b.md']);
  assert.deepEqual(graph.backlinks('b.md').map((b) => b.source), ['a.md']);
  graph.remove('a.md');
  assert.equal(graph.outgoing('b.md')[0].path, undefined);
});

test('10,000 links in one note, re-set and removed, leave no stale backlinks', () => {
  const graph = new LinkGraph();
  for (let i = 0; i < 100; i++) graph.set(parseNote(`n${i}.md`, `# ${i}`));
  const many = Array.from({ length: 10_000 }, (_, i) => `[[n${i % 100}]] [[missing${i}]]`).join('\n');
  graph.set(parseNote('hub.md', many));
  assert.equal(graph.backlinks('n7.md').length, 100);
  assert.equal(graph.unresolved('hub.md').length, 10_000);
  graph.set(parseNote('hub.md', many));
  assert.equal(graph.backlinks('n7.md').length, 100);
  graph.remove('hub.md');
  assert.equal(graph.backlinks('n7.md').length, 0);
});

test('a 10,000-character target and [[../../etc/passwd]] are unresolved, never looked up on disk', () => {
  const graph = new LinkGraph();
  graph.set(parseNote('passwd.md', '# not the system file'));
  graph.set(parseNote('x.md', `[[${'a'.repeat(10_000)}]] [[../../etc/passwd]] [x](../../etc/passwd.md) [[/etc/passwd]]`));
  const links = graph.outgoing('x.md');
  assert.deepEqual(links.map((l) => [l.target.length, l.path, l.outside]), [
    [10_000, undefined, undefined],
    ['../../etc/passwd'.length, undefined, true],
    // A rooted path names a path in the kiln: there is no etc/passwd.md here.
    ['/etc/passwd'.length, undefined, undefined],
    ['../../etc/passwd.md'.length, undefined, true],
  ]);
});

test('a symlinked note and a symlinked folder are not read; nothing outside the kiln is', async () => {
  const outside = join(tmpdir(), `hearth-outside-${process.pid}`);
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.md'), '# Secret\n[[Home]]\n');
  const root = makeKiln({ 'Home.md': '# Home\n[[secret]] [[inside]]\n', 'inside.md': 'x' });
  try {
    symlinkSync(join(outside, 'secret.md'), join(root, 'secret.md'));
    symlinkSync(outside, join(root, 'linked'));
    const links = await readKilnLinks(root, RULES);
    assert.deepEqual([...links.graph.paths()].sort(), ['Home.md', 'inside.md']);
    assert.deepEqual(links.graph.backlinks('Home.md'), []);
    assert.equal(links.graph.outgoing('Home.md')[0].path, undefined);
    await links.update(['secret.md', 'linked/secret.md']);
    assert.deepEqual([...links.graph.paths()].sort(), ['Home.md', 'inside.md']);
  } finally {
    removeKiln(root);
    removeKiln(outside);
  }
});

test('refresh re-reads only changed notes; update follows a rename and a delete', async () => {
  const root = makeKiln({ 'a.md': '[[b]]', 'b.md': '# B' });
  try {
    const links = await readKilnLinks(root, RULES);
    assert.equal(links.graph.backlinks('b.md').length, 1);
    const { renameSync, rmSync } = await import('node:fs');
    renameSync(join(root, 'b.md'), join(root, 'c.md'));
    await links.update(['b.md', 'c.md']);
    assert.deepEqual(links.graph.unresolved().map((l) => l.target), ['b']);
    writeFileSync(join(root, 'a.md'), '[[c]] and more words');
    await links.refresh();
    assert.equal(links.graph.backlinks('c.md').length, 1);
    rmSync(join(root, 'a.md'));
    await links.refresh();
    assert.deepEqual(links.graph.backlinks('c.md'), []);
  } finally {
    removeKiln(root);
  }
});
