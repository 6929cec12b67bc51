import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeKiln, removeKiln, tinyIndex, writeNotes } from './kilnIndexHelpers';
import { tinyModelDir } from './tinyModel';

const NOTES = {
  'garden.md': '---\ntitle: Garden\ntags: [home]\n---\n# Plants\nTomatoes and basil grow by the garden wall.\n\n## Watering\nWater the tomatoes every morning in summer.\n',
  'kitchen/bread.md': '# Bread\nFlour, water, salt and yeast make a simple bread.\n',
  'kitchen/coffee.md': '# Coffee\nGrind the beans just before brewing the coffee.\n',
  'drafts/secret.md': '# Secret\nThis draft mentions tomatoes but is excluded.\n',
};

test('first run embeds every note; a no-op run touches no embedder; edit, delete and rename re-embed only what changed', async () => {
  const root = makeKiln(NOTES);
  try {
    const index = tinyIndex(root, { exclude: ['drafts/**'] });
    const first = await index.update();
    assert.equal(first.notes, 3);
    assert.equal(first.embeddedNotes, 3);
    assert.equal(first.chunks, 4);
    assert.equal(first.embedded, 4);
    assert.equal(first.cancelled, false);
    await index.dispose();

    // A fresh service (as in a new process) on an unchanged kiln: nothing loaded, nothing embedded.
    const again = tinyIndex(root, { exclude: ['drafts/**'] });
    const noop = await again.update();
    assert.equal(again.created, 0, 'the embedder must not be created for a no-op run');
    assert.deepEqual([noop.notes, noop.chunks, noop.embedded, noop.unchanged, noop.removed], [3, 4, 0, 3, 0]);

    appendFileSync(join(root, 'kitchen/bread.md'), '\n## Baking\nBake at a high heat for forty minutes.\n');
    rmSync(join(root, 'kitchen/coffee.md'));
    renameSync(join(root, 'garden.md'), join(root, 'yard.md'));
    const changed = await again.update();
    assert.equal(changed.embeddedNotes, 2, 'bread (edited) and yard (renamed) only');
    assert.equal(changed.removed, 2, 'coffee (deleted) and garden (renamed away)');
    assert.equal(changed.notes, 2);
    assert.equal(changed.chunks, 4);
    const hits = await again.search('forty minutes heat', { mode: 'semantic', limit: 10 });
    assert.deepEqual(new Set(hits.map((h) => h.path)), new Set(['kitchen/bread.md', 'yard.md']));

    // --force re-embeds everything.
    const forced = await again.update({ force: true });
    assert.equal(forced.embeddedNotes, 2);
    await again.dispose();
  } finally {
    removeKiln(root);
  }
});

test('exclude globs, max_file_size_kb and broken or binary notes are reported per file and never stop the run', async () => {
  const root = makeKiln({
    ...NOTES,
    'big.md': `# Big\n${'lorem ipsum '.repeat(200)}\n`,
    'broken.md': '---\ntitle: [unclosed\n---\n# Broken\nThe body still counts.\n',
    'junk.md': Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 0, 7]),
  });
  try {
    const index = tinyIndex(root, { exclude: ['drafts'], max_file_size_kb: 1 });
    const report = await index.update();
    assert.ok(report.skipped.some((s) => s.path === 'big.md' && /max_file_size_kb/.test(s.reason)));
    assert.ok(report.skipped.some((s) => s.path === 'junk.md'));
    assert.ok(report.problems.some((p) => p.path === 'broken.md'));
    assert.ok(report.skipped.some((s) => s.path === 'broken.md' && /frontmatter/.test(s.reason)), 'a note with broken frontmatter is skipped');
    const semantic = await index.search('body still counts', { mode: 'semantic', limit: 20 });
    const paths = new Set(semantic.map((h) => h.path));
    assert.ok(paths.size > 0, 'the other notes are indexed');
    assert.ok(!paths.has('broken.md') && !paths.has('drafts/secret.md') && !paths.has('big.md') && !paths.has('junk.md'));
    // Excluding more later removes what was indexed.
    await index.dispose();
    const narrower = tinyIndex(root, { exclude: ['drafts', 'kitchen/**'], max_file_size_kb: 1 });
    const after = await narrower.update();
    assert.equal(after.removed, 2);
    await narrower.dispose();
  } finally {
    removeKiln(root);
  }
});

test('search modes: semantic and hybrid carry path, title, heading, lines, score, snippet; text takes literals and /regex/, property key=value', async () => {
  const root = makeKiln(NOTES);
  try {
    const index = tinyIndex(root, { exclude: ['drafts/**'] });
    await index.update();
    const hybrid = await index.search('water the tomatoes every morning', { limit: 3 });
    assert.equal(hybrid[0].path, 'garden.md');
    assert.deepEqual(
      { title: hybrid[0].title, heading: hybrid[0].heading, startLine: hybrid[0].startLine, endLine: hybrid[0].endLine },
      { title: 'Garden', heading: 'Plants > Watering', startLine: 8, endLine: 9 },
    );
    assert.match(hybrid[0].snippet, /Water the tomatoes/);
    assert.ok(hybrid.every((h, i) => i === 0 || h.score <= hybrid[i - 1].score));
    const semantic = await index.search('grind the coffee beans', { mode: 'semantic', limit: 1 });
    assert.equal(semantic[0].path, 'kitchen/coffee.md');
    assert.ok(semantic[0].score > 0 && semantic[0].score <= 1.0001);

    const text = await index.search('TOMATOES', { mode: 'text', limit: 10 });
    assert.deepEqual(text.map((h) => [h.path, h.startLine, h.heading, h.score]), [['garden.md', 6, 'Plants', 1]]);
    assert.deepEqual(text[0].sections?.map((s) => [s.startLine, s.heading]), [[9, 'Plants > Watering']]);
    const lines = await index.search('TOMATOES', { mode: 'text', limit: 10, chunks: true });
    assert.deepEqual(lines.map((h) => [h.path, h.startLine, h.heading]), [['garden.md', 6, 'Plants'], ['garden.md', 9, 'Plants > Watering']]);
    const regex = await index.search('/^(Flour|Grind)\\b/', { mode: 'text', limit: 10 });
    assert.deepEqual(regex.map((h) => h.path), ['kitchen/bread.md', 'kitchen/coffee.md']);
    await assert.rejects(index.search('/(/', { mode: 'text' }), (e: { code?: string }) => e.code === 'search.bad_query');

    // property: frontmatter (and inline tags) equality, every pair must match.
    const home = await index.search('tags=home', { mode: 'property' });
    assert.deepEqual(home.map((h) => [h.path, h.title, h.startLine, h.endLine]), [['garden.md', 'Garden', 1, 4]]);
    assert.deepEqual(await index.search('tags=home title=Other', { mode: 'property' }), []);
    assert.equal((await index.search('TITLE=garden', { mode: 'property' })).length, 0, 'keys are exact');
    assert.equal((await index.search('title=GARDEN', { mode: 'property' })).length, 1, 'values ignore case');
    await assert.rejects(index.search('home', { mode: 'property' }), (e: { code?: string }) => e.code === 'search.bad_query');
    await index.dispose();
  } finally {
    removeKiln(root);
  }
});

test('editor paths: only the given notes (or folders) are looked at; a deleted folder leaves the index', async () => {
  const root = makeKiln(NOTES);
  try {
    const index = tinyIndex(root, { exclude: ['drafts/**'] });
    await index.update();
    writeNotes(root, { 'kitchen/tea.md': '# Tea\nSteep green tea for two minutes.\n' });
    writeFileSync(join(root, 'garden.md'), '# Plants\nOnly basil now.\n');
    const one = await index.update({ paths: ['kitchen/tea.md'] });
    assert.deepEqual([one.embeddedNotes, one.unchanged, one.notes], [1, 0, 4], 'garden.md changed but was not named');
    rmSync(join(root, 'kitchen'), { recursive: true });
    const gone = await index.update({ paths: ['kitchen'] });
    assert.deepEqual([gone.removed, gone.notes], [3, 1]);
    await index.dispose();
  } finally {
    removeKiln(root);
  }
});

test('a corrupt index, or one built with another model, is rebuilt and the report says why; clear empties it', async () => {
  const root = makeKiln(NOTES);
  try {
    const index = tinyIndex(root, { exclude: ['drafts/**'] });
    await index.update();
    await index.dispose();
    writeFileSync(join(index.dir, 'manifest.json'), '{"format": "hearth-flat", garbage');
    const repaired = tinyIndex(root, { exclude: ['drafts/**'] });
    const report = await repaired.update();
    assert.match(report.rebuilt ?? '', /damaged|corrupt|inconsistent/i);
    assert.equal(report.embeddedNotes, 3);
    await repaired.clear();
    assert.deepEqual(await repaired.counts(), { notes: 0, chunks: 0 });
    const refill = await repaired.update();
    assert.equal(refill.embeddedNotes, 3);
    await repaired.dispose();

    // Another model (a copy of the folder is another model to the header): a rebuild, with notice.
    const otherModel = join(root, '.hearth', 'other-model');
    cpSync(tinyModelDir(), otherModel, { recursive: true });
    const switched = tinyIndex(root, { exclude: ['drafts/**'] }, { model: otherModel });
    const rebuilt = await switched.update();
    assert.match(rebuilt.rebuilt ?? '', /must be rebuilt/);
    assert.equal(rebuilt.embeddedNotes, 3);
    await switched.dispose();

    // The same kiln indexed with vectra: its own folder, the same results.
    const vectra = tinyIndex(root, { exclude: ['drafts/**'], store: 'vectra' });
    assert.equal((await vectra.update()).embeddedNotes, 3);
    assert.ok(existsSync(vectra.dir) && vectra.dir.endsWith('vectra'));
    const hit = await vectra.search('grind the coffee beans', { mode: 'semantic', limit: 1 });
    assert.equal(hit[0].path, 'kitchen/coffee.md');
    await vectra.dispose();
  } finally {
    removeKiln(root);
  }
});

test('cancelling a run keeps what was embedded; the next run finishes the rest', async () => {
  const notes: Record<string, string> = {};
  for (let i = 0; i < 120; i++) notes[`n${String(i).padStart(3, '0')}.md`] = `# Note ${i}\nWord${i} and more words about topic ${i % 7}.\n`;
  const root = makeKiln(notes);
  try {
    const index = tinyIndex(root, {}, { batch_size: 4 });
    const controller = new AbortController();
    // Abort at the first group of notes embedded (model loading may report before that).
    const report = await index.update({ signal: controller.signal, progress: { report: (u) => /of 120 notes/.test(u.message ?? '') && controller.abort() } });
    assert.equal(report.cancelled, true);
    assert.ok(report.embeddedNotes > 0 && report.embeddedNotes < 120, `embedded ${report.embeddedNotes}`);
    await index.dispose();
    const resumed = tinyIndex(root);
    const rest = await resumed.update();
    assert.equal(rest.embeddedNotes + rest.unchanged, 120);
    assert.equal(rest.unchanged, report.embeddedNotes);
    await resumed.dispose();
  } finally {
    removeKiln(root);
  }
});

test('two processes on one index: a run whose commit meets a commit by the other reloads the index and runs again', async () => {
  const root = makeKiln(NOTES);
  try {
    const editor = tinyIndex(root, { exclude: ['drafts/**'] });
    await editor.update();
    const cli = tinyIndex(root, { exclude: ['drafts/**'] });
    assert.deepEqual(await cli.counts(), { notes: 3, chunks: 4 });
    writeNotes(root, { 'tea.md': '# Tea\nGreen tea.\n' });
    await editor.update();
    writeNotes(root, { 'soup.md': '# Soup\nLeek soup.\n' });
    const report = await cli.update();
    assert.equal(report.notes, 5);
    assert.deepEqual(await cli.counts(), { notes: 5, chunks: 6 });
    await cli.dispose();
    await editor.dispose();
    const fresh = tinyIndex(root, { exclude: ['drafts/**'] });
    const after = await fresh.update();
    assert.deepEqual([after.notes, after.embedded], [5, 0], 'the work of both processes is on disk');
    await fresh.dispose();
  } finally {
    removeKiln(root);
  }
});

test('a kiln folder that does not exist is a clear error; no index folder is made inside the typo', async () => {
  const parent = makeKiln({});
  const missing = join(parent, 'notes-typo');
  const index = tinyIndex(missing);
  try {
    await assert.rejects(index.update(), (error: Error & { code?: string }) => error.code === 'index.kiln_missing' && error.message.includes(missing));
    assert.equal(existsSync(missing), false, 'nothing created at the missing kiln path');
    assert.equal(index.created, 0, 'no embedder started');
  } finally {
    await index.dispose();
    removeKiln(parent);
  }
});

test('a file where the index folder goes: the run fails with index.folder_unusable and the file is kept (it is not a damaged index to delete)', async () => {
  const kiln = makeKiln({ 'a.md': '# A\nApples.\n' });
  const index = tinyIndex(kiln);
  try {
    writeNotes(kiln, { '.hearth/index/flat': 'a file someone put here' });
    await assert.rejects(index.update(), { code: 'index.folder_unusable' });
    assert.equal(readFileSync(join(kiln, '.hearth/index/flat'), 'utf8'), 'a file someone put here');
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});
