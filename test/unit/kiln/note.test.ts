import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNote } from '../../../src/core/kiln/note';
import { chunkNote } from '../../../src/core/index/chunker';

test('frontmatter, title, tags (not in code), wikilinks and markdown links, headings', () => {
  const text = [
    '---', 'title: My Note', 'tags: [alpha, "#beta"]', 'status: draft', '---',
    '# Heading One', 'Text with #gamma and [[Other Note|alias]] and [x](docs/a.md).', '',
    '```', '#notatag [[notalink]]', '```', 'Inline `#code` here #1 #delta/sub', '## Sub', 'more',
  ].join('\n');
  const note = parseNote('folder/my.md', text);
  assert.equal(note.title, 'My Note');
  assert.equal(note.frontmatter.status, 'draft');
  assert.deepEqual(note.tags.sort(), ['alpha', 'beta', 'delta/sub', 'gamma']);
  assert.deepEqual(note.links.map((l) => [l.kind, l.target, l.line]), [['wiki', 'Other Note', 7], ['markdown', 'docs/a.md', 7]]);
  assert.deepEqual(note.headings.map((h) => [h.level, h.text, h.line]), [[1, 'Heading One', 6], [2, 'Sub', 13]]);
  assert.equal(note.bodyStartLine, 6);
  const chunks = chunkNote(note);
  assert.deepEqual(chunks.map((c) => [c.headingPath, c.startLine, c.endLine]), [[['Heading One'], 6, 12], [['Heading One', 'Sub'], 13, 14]]);
});

test('title falls back to the first heading, then the file name; a note without headings is one chunk', () => {
  assert.equal(parseNote('a/b.md', 'intro\n# First\n## Second').title, 'First');
  const plain = parseNote('a/plain note.md', 'just text\n\nmore text\n');
  assert.equal(plain.title, 'plain note');
  const chunks = chunkNote(plain);
  assert.equal(chunks.length, 1);
  assert.deepEqual([chunks[0].headingPath, chunks[0].startLine, chunks[0].endLine], [[], 1, 3]);
});

test('broken frontmatter is reported; the body still parses (for the kiln tools; the index leaves the note out)', () => {
  const note = parseNote('bad.md', '---\ntitle: [unclosed\n  : :\n---\n# Body\ntext');
  assert.equal(note.skipped, false);
  assert.equal(note.problems[0]?.code, 'note.frontmatter');
  assert.deepEqual(note.frontmatter, {});
  assert.equal(note.title, 'Body');
  assert.equal(chunkNote(note)[0].startLine, 5);
});

test('binary junk in a .md file is reported and skipped', () => {
  const note = parseNote('junk.md', 'PK\u0003\u0004\u0000\u0000garbage\u0001\u0002');
  assert.equal(note.skipped, true);
  assert.equal(note.problems[0]?.code, 'note.binary');
  assert.deepEqual(chunkNote(note), []);
});

test('CRLF gives the same lines and chunks as LF (hash differs only by content)', () => {
  const lf = '# A\nline one\n\n# B\nline two\n';
  const crlf = lf.replace(/\n/g, '\r\n');
  const a = chunkNote(parseNote('x.md', lf));
  const b = chunkNote(parseNote('x.md', crlf));
  assert.deepEqual(b, a);
  assert.ok(!b.some((c) => c.text.includes('\r')));
  assert.equal(parseNote('x.md', lf).contentHash, parseNote('y.md', lf).contentHash);
  assert.notEqual(parseNote('x.md', lf).contentHash, parseNote('x.md', lf + 'x').contentHash);
});

test('huge sections split on paragraph boundaries within the bound; unicode never cut in half', () => {
  const para = (i: number): string => `Paragraph ${i} ` + 'word '.repeat(60);
  const body = Array.from({ length: 40 }, (_, i) => para(i)).join('\n\n');
  const note = parseNote('big.md', `# Big\n${body}`);
  const chunks = chunkNote(note, { maxChars: 1000 });
  assert.ok(chunks.length > 5);
  for (const c of chunks) {
    assert.ok([...c.text].length <= 1000, `chunk of ${c.text.length}`);
    assert.deepEqual(c.headingPath, ['Big']);
    assert.equal(c.text, note.lines.slice(c.startLine - 1, c.endLine).join('\n'));
  }
  // Ranges cover paragraphs in order without overlap.
  for (let i = 1; i < chunks.length; i++) assert.ok(chunks[i].startLine > chunks[i - 1].endLine);
  const emoji = '😀é中'.repeat(1000);
  const long = chunkNote(parseNote('u.md', `# Ü\n${emoji}`), { maxChars: 500 });
  assert.ok(long.length >= 6);
  assert.equal(long[0].text, '# Ü');
  assert.ok(long.slice(1).map((c) => c.text).join('') === emoji, 'pieces rejoin to the original text');
  for (const c of long) assert.ok(!/[\uD800-\uDBFF]$/.test(c.text));
});

test('a heading with only subsections under it joins the first subsection instead of being a chunk of its own', () => {
  const text = '# Tomatoes\nCordon tomatoes.\n\n## Problems\n\n### Blight\nBrown patches.\n\n### Split fruit\nIrregular watering.\n\n## Todo\n## Harvest\nIn August.\n\n# A\n## B\n### C\nDeep text.\n';
  const chunks = chunkNote(parseNote('t.md', text));
  assert.deepEqual(
    chunks.map((c) => [c.headingPath.join(' > '), c.startLine, c.endLine]),
    [
      ['Tomatoes', 1, 2],
      ['Tomatoes > Problems > Blight', 4, 7],
      ['Tomatoes > Problems > Split fruit', 9, 10],
      // A sibling, not a subsection: the empty section stays its own chunk, with the right path.
      ['Tomatoes > Todo', 12, 12],
      ['Tomatoes > Harvest', 13, 14],
      ['A > B > C', 16, 19],
    ],
  );
  assert.ok(chunks.every((c) => c.text.replace(/^#+ .*$/gm, '').trim() !== '' || c.headingPath.at(-1) === 'Todo'), 'no bare heading chunk');
  assert.equal(chunks[1].text, '## Problems\n\n### Blight\nBrown patches.');
});
