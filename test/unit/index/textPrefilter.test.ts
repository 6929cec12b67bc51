import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessingSchema } from '../../../src/core/config/schema';
import { scanKiln } from '../../../src/core/kiln/kilnScanner';
import { textModeSearch } from '../../../src/core/index/search/diskSearch';
import { textPrefilter, wholeWords } from '../../../src/core/index/search/textPrefilter';
import { makeKiln, removeKiln, tinyIndex } from './kilnIndexHelpers';

const LONG_LINE = `${'filler words here '.repeat(200)}parsing the notes again ${'more filler '.repeat(200)}`;
const NOTES = {
  'a/parse.md': '# Parsing\nWe are parsing the notes of the garden.\n',
  'a/run.md': '# Runs\nWe are running the tests every morning.\n',
  'b/front.md': '---\nstatus: draft review pending\ntags: [home]\n---\n# Front\nNothing about the status here.\n',
  'b/long.md': `# Long\n${LONG_LINE}\n`,
  'b/compost.md': '# Compost\nThe compost heap warms in spring.\n',
  'c/stale.md': '# Stale\nOnly about bread and flour.\n',
  'c/other.md': '# Other\nCoffee beans and a grinder.\n',
};
const QUERIES = [
  'parsing the notes', // whole word "the" in the middle
  'are running the', // whole words stemmed in the index ("running" → "run")
  'status: draft review', // in the frontmatter only: no chunk holds it
  'ompos', // inside a word: the index cannot answer it
  'the compost heap',
  'baking the bread', // in the note changed after the index was written
  'the zebra crossing', // nowhere
  'PARSING THE NOTES', // case
  '/pars(ing|e) the/i', // a pattern
];

const hourAgo = new Date(Date.now() - 3_600_000);

test('text search with the word index as a prefilter returns exactly a full scan: stale notes, frontmatter, substrings, long lines, patterns', async () => {
  const root = makeKiln(NOTES);
  try {
    // Times well before the run: the stat cache records only notes not written in the run's own clock tick.
    for (const path of Object.keys(NOTES)) utimesSync(join(root, path), hourAgo, hourAgo);
    const rules = ProcessingSchema.parse({});
    const index = tinyIndex(root);
    await index.update();
    await index.dispose();
    // Changed after the word index was written (and given an old time of its own): its new words are not indexed.
    appendFileSync(join(root, 'c/stale.md'), 'Now also about baking the bread.\n');
    utimesSync(join(root, 'c/stale.md'), hourAgo, new Date(Date.now() - 1_800_000));

    const again = tinyIndex(root);
    for (const query of QUERIES) {
      const full = await textModeSearch(root, rules, query, 100);
      const filtered = await again.search(query, { mode: 'text', limit: 100, chunks: true });
      assert.deepEqual(filtered, full, `the same lines for ${JSON.stringify(query)}`);
    }
    assert.ok((await textModeSearch(root, rules, 'baking the bread', 100)).some((r) => r.path === 'c/stale.md'), 'the stale note is found by its new words');
    assert.ok((await textModeSearch(root, rules, 'status: draft review', 100)).some((r) => r.path === 'b/front.md'), 'the frontmatter line is found');
    await again.dispose();

    // The prefilter does leave notes out, unread, where the index vouches for them.
    const scanned = new Map((await scanKiln(root, rules)).notes.map((n) => [n.path, n]));
    const mayMatch = await textPrefilter(index.dir, 'parsing the notes of');
    assert.ok(mayMatch, 'a query with a whole word gets a prefilter');
    const kept = [...scanned.values()].filter(mayMatch).map((n) => n.path).sort();
    // parse.md holds the words; long.md has a line cut between chunks; stale.md changed: all read. The
    // others hold "the" but not "notes" (front.md's frontmatter neither).
    assert.deepEqual(kept, ['a/parse.md', 'b/long.md', 'c/stale.md']);
    assert.equal(await textPrefilter(index.dir, 'ompos'), undefined, 'no whole word: every note is read');
    assert.equal(await textPrefilter(index.dir, '/the/'), undefined, 'a pattern: every note is read');
  } finally {
    removeKiln(root);
  }
});

test('whole words are the ASCII words bounded inside the query on both sides', () => {
  assert.deepEqual(wholeWords('parse the command line'), ['the', 'command']);
  assert.deepEqual(wholeWords('status: draft review'), ['draft']);
  assert.deepEqual(wholeWords('a café-bar x'), ['bar']);
  assert.deepEqual(wholeWords('naïve word here'), ['word']);
  assert.deepEqual(wholeWords('one'), []);
});
