// The Markdown preview's wikilinks, through the real markdown-it: resolved links point at the note
// relative to the previewed file (with the heading's anchor), unresolved ones are marked, code is not touched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { parseNote } from '../../../src/core/kiln/note';
import { LinkGraph } from '../../../src/core/kiln/links/linkGraph';
import { wikilinkPlugin } from '../../../src/vscode/links/markdownItWikilinks';

const graph = new LinkGraph();
for (const [path, text] of Object.entries({ 'Home.md': '# Home', 'garden/Compost Heap.md': '---\naliases: [Black Gold]\n---\n# Compost' })) graph.set(parseNote(path, text));
const md = new MarkdownIt();
wikilinkPlugin({ graph: () => graph, kilnRoot: () => '/kiln' })(md as never);
const render = (text: string, doc = '/kiln/notes/day.md') => md.render(text, { currentDocument: { fsPath: doc, scheme: 'file' } });

test('a wikilink renders as a link to the note, relative to the previewed file, heading as anchor, alias as text', () => {
  assert.match(render('See [[Compost Heap#Browns & greens]].'), /<a class="hearth-wikilink" href="..\/garden\/Compost%20Heap.md#browns--greens" data-href="[^"]+">Compost Heap › Browns &amp; greens<\/a>/);
  assert.match(render('[[Black Gold|the heap]]', '/kiln/Home.md'), /href="garden\/Compost%20Heap.md"[^>]*>the heap<\/a>/);
  assert.match(render('![[Home]]'), /href="..\/Home.md"/);
});

test('an unresolved wikilink is marked; code and a hostile line stay text', () => {
  assert.match(render('[[Nowhere]]'), /class="hearth-wikilink hearth-unresolved" href="..\/Nowhere.md"/);
  assert.doesNotMatch(render('`[[Home]]`\n\n```\n[[Home]]\n```'), /hearth-wikilink/);
  assert.match(render(`[[${'<script>'.repeat(10)}]]`), /&lt;script&gt;/);
  const long = render('[['.repeat(50_000));
  assert.doesNotMatch(long, /hearth-wikilink/);
});
