// The reference linker's core: which parts of a reply may become open-note links. Only
// kiln-relative references do; `..`, absolute paths, `~`, drive letters and URLs never do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findNoteReferences, isKilnRelativeNotePath, MAX_NOTE_LINKS, wholeReference } from '../../../src/core/chat/context/noteReferences';

const targets = (text: string) => findNoteReferences(text).map((r) => [r.kind, r.target, r.line ?? null, text.slice(r.start, r.end)]);

test('wiki links, paths and path:line become references with their exact span', () => {
  assert.deepEqual(targets('See [[Composting]] and techniques/Composting.md:12, also garden/beds.md.'), [
    ['wikilink', 'Composting', null, '[[Composting]]'],
    ['path', 'techniques/Composting.md', 12, 'techniques/Composting.md:12'],
    ['path', 'garden/beds.md', null, 'garden/beds.md'],
  ]);
  assert.deepEqual(targets('[[Soil types#Clay|clay soil]] and notes/x.md:3-9'), [
    ['wikilink', 'Soil types', null, '[[Soil types#Clay|clay soil]]'],
    ['path', 'notes/x.md', 3, 'notes/x.md:3-9'],
  ]);
});

test('unicode names and wiki links with spaces; a path with spaces links whole only where it is delimited (code span)', () => {
  assert.deepEqual(targets('see gärten/Ölbaum.md:4 and [[Crème brûlée]]'), [
    ['path', 'gärten/Ölbaum.md', 4, 'gärten/Ölbaum.md:4'],
    ['wikilink', 'Crème brûlée', null, '[[Crème brûlée]]'],
  ]);
  // In prose a space ends a path: only the last word is a (kiln-relative) reference.
  assert.deepEqual(targets('in my notes/Compost heap.md'), [['path', 'heap.md', null, 'heap.md']]);
  assert.deepEqual(wholeReference('my notes/Compost heap.md:7'), { start: 0, end: 26, target: 'my notes/Compost heap.md', kind: 'path', line: 7 });
});

test('.., absolute paths, home, drive letters, UNC and URLs never become note references', () => {
  for (const text of [
    '../secret.md',
    'notes/../../etc/passwd.md',
    '/etc/passwd.md',
    '~/.ssh/id_rsa.md',
    'C:\\Users\\me\\a.md',
    '\\\\server\\share\\a.md',
    'https://example.com/a.md',
    'file:///etc/a.md',
    'command:workbench.action.terminal.new?a.md',
    'javascript:alert(1)//a.md',
    '[[../secret]]',
    '[[/etc/passwd]]',
    '[[https://evil.example/x]]',
  ]) {
    assert.deepEqual(findNoteReferences(text), [], text);
    assert.equal(wholeReference(text), undefined, text);
  }
  assert.equal(isKilnRelativeNotePath('a/./b.md'), false);
  assert.equal(isKilnRelativeNotePath('a/b.md'), true);
});

test('10 000 references: linked up to the cap, found in one pass', () => {
  const text = Array.from({ length: 10_000 }, (_, i) => `[[Note ${i}]] n${i}.md:${i + 1}`).join(' ');
  const refs = findNoteReferences(text);
  assert.equal(refs.length, MAX_NOTE_LINKS);
  assert.equal(refs[1]!.target, 'n0.md');
  assert.equal(findNoteReferences(text, 20_000).length, 20_000);
});

test('(#29) known note paths with spaces, parentheses and unicode link whole, resolved against the example kiln', async () => {
  const { NoteCatalog } = await import('../../../src/core/chat/context/noteCompletions');
  const { resolve } = await import('node:path');
  const known = await new NoteCatalog(() => resolve('test/fixtures/example-kiln')).linkablePaths();
  // The example's notes whose names have spaces are the ones that need to be known; the others link by the pattern.
  assert.deepEqual(known.sort(), ['journal/2026/2026-04 Spring Sowing.md', 'journal/2026/2026-07 Midsummer.md', 'techniques/Companion Planting.md', 'vegetables/Runner Beans.md']);
  const withKnown = (text: string, paths: readonly string[]) => findNoteReferences(text, MAX_NOTE_LINKS, paths).map((r) => [r.target, r.line ?? null, text.slice(r.start, r.end)]);
  assert.deepEqual(withKnown('As techniques/Companion Planting.md:9 says, and vegetables/Runner Beans.md too; see herbs/Basil.md.', known), [
    ['techniques/Companion Planting.md', 9, 'techniques/Companion Planting.md:9'],
    ['vegetables/Runner Beans.md', null, 'vegetables/Runner Beans.md'],
    ['herbs/Basil.md', null, 'herbs/Basil.md'],
  ]);
  const more = ['Tomatoes (cherry).md', 'jardín/Crème brûlée (vieux).md', 'Planting.md', 'x/Companion Planting.md'];
  assert.deepEqual(withKnown('Tomatoes (cherry).md:4-6, jardín/Crème brûlée (vieux).md and x/Companion Planting.md', more), [
    ['Tomatoes (cherry).md', 4, 'Tomatoes (cherry).md:4-6'],
    ['jardín/Crème brûlée (vieux).md', null, 'jardín/Crème brûlée (vieux).md'],
    ['x/Companion Planting.md', null, 'x/Companion Planting.md'],
  ]);
  // A name saved decomposed (NFD) is found where the model wrote it composed, and links to the file's own spelling.
  const nfd = 'Crème brûlée.md'.normalize('NFD');
  assert.deepEqual(withKnown('see Crème brûlée.md:2', [nfd]), [[nfd, 2, 'Crème brûlée.md:2']]);
  // The tail of a longer token is not a known path.
  assert.deepEqual(withKnown('my/Tomatoes (cherry).mdx', ['Tomatoes (cherry).md']), []);
});
