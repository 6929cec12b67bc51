// The persisted lexical index (lexical.bin beside the vector store): loaded instead of rebuilt,
// updated per note, consistent with the vectors after a kill -9 at any moment, and rebuilt with a
// warning (never a crash) when damaged or foreign.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { LEXICAL_FILE, readLexicalFile, writeLexicalFile } from '../../../src/core/index/words/lexicalFile';
import { NoteBm25 } from '../../../src/core/index/words/noteBm25';
import { TermList } from '../../../src/core/index/words/termList';
import { startHashedEmbedServer } from '../../eval/hashedEmbedServer';
import { NOTES as CRASH_NOTES } from './lexicalCrashWriter';
import { evalIndex, recordingLogger } from './lexicalHelpers';
import { makeKiln, removeKiln } from './kilnIndexHelpers';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

const NOTES = {
  'garden.md': '# Garden\nTomatoes and basil grow by the wall.\n\n## Watering\nWater the tomatoes every morning.\n',
  'bread.md': '# Bread\nFlour, water, salt and yeast.\n',
  'coffee.md': '# Coffee\nGrind the beans before brewing.\n',
};

/** Counts full builds of the lexical index from chunks (a loaded file is no build). */
function countBuilds(): { count: number; restore(): void } {
  const original = NoteBm25.build;
  const counter = {
    count: 0,
    restore: () => void (NoteBm25.build = original),
  };
  NoteBm25.build = (async (...args: Parameters<typeof original>) => {
    counter.count++;
    return original(...args);
  }) as typeof original;
  return counter;
}

const search = async (index: ReturnType<typeof evalIndex>, query: string) => (await index.search(query, { limit: 10 })).map((r) => [r.path, r.score, r.startLine]);

test('the lexical index is saved beside the store, loaded (not rebuilt) by the next process, and a changed note updates both sides', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  const builds = countBuilds();
  try {
    const first = evalIndex(root, server.url);
    await first.update();
    const before = await search(first, 'tomatoes morning');
    await first.dispose();
    assert.equal(builds.count, 1);
    const file = join(root, '.hearth/index/flat', LEXICAL_FILE);
    assert.ok(existsSync(file), 'lexical.bin beside the vector store');

    const second = evalIndex(root, server.url);
    await second.update();
    assert.deepEqual(await search(second, 'tomatoes morning'), before, 'the loaded index ranks as the built one');
    assert.equal(builds.count, 1, 'loaded from the file, not rebuilt');

    const mtime = statSync(file).mtimeMs;
    writeFileSync(join(root, 'bread.md'), '# Bread\nSourdough needs a lively starter.\n');
    await second.update();
    assert.equal((await second.search('sourdough starter', { limit: 1 }))[0].path, 'bread.md', 'the changed note is found by its new words');
    assert.ok(!(await second.search('yeast flour', { limit: 10 })).some((r) => r.path === 'bread.md' && r.snippet.includes('yeast')));
    assert.equal(builds.count, 1, 'one note swapped in, no rebuild');
    await second.dispose();
    assert.ok(statSync(file).mtimeMs >= mtime);
    const saved = await readLexicalFile(join(root, '.hearth/index/flat'));
    assert.ok(saved?.snapshot.terms.includes('sourdough'), 'the file has the new words');
    assert.ok(!saved?.snapshot.terms.includes('yeast'), 'and not the old ones');

    // Another process indexes a change without searching: its run patches the file with that note
    // (no build), so the next process's first search reads it as it is.
    const writer = evalIndex(root, server.url);
    writeFileSync(join(root, 'coffee.md'), '# Coffee\nEspresso wants a fine grind.\n');
    await writer.update();
    await writer.dispose();
    assert.ok((await readLexicalFile(join(root, '.hearth/index/flat')))?.snapshot.terms.includes('espresso'), 'the run patched the word index');
    const written = statSync(file).mtimeMs;
    const reader = evalIndex(root, server.url);
    assert.equal((await reader.search('espresso', { limit: 1 }))[0].path, 'coffee.md');
    await reader.dispose();
    assert.equal(statSync(file).mtimeMs, written, 'the search found the file up to date: nothing to swap in or save');
    assert.equal(builds.count, 1, 'still no rebuild');
  } finally {
    builds.restore();
    await server.stop();
    removeKiln(root);
  }
});

test('an index run writes the word index: a fresh process\'s first search loads it (no build from the store), a run that changed nothing leaves it alone, and a run after one note changed patches it to exactly a rebuild\'s scores', async () => {
  const root = makeKiln({ ...NOTES, 'tea.md': '# Tea\nGreen tea and black tea; steep the leaves.\n', 'soil.md': '# Soil\nCompost feeds the soil of the garden.\n' });
  const server = await startHashedEmbedServer();
  const builds = countBuilds();
  const dir = join(root, '.hearth/index/flat');
  const file = join(dir, LEXICAL_FILE);
  try {
    const indexer = evalIndex(root, server.url);
    await indexer.update();
    assert.ok(existsSync(file), 'written by the run itself, before any search');
    assert.equal(builds.count, 1);
    const unchanged = statSync(file).mtimeMs;
    await indexer.update();
    await indexer.dispose();
    assert.equal(statSync(file).mtimeMs, unchanged, 'a run that changed nothing does not rewrite it');

    const searcher = evalIndex(root, server.url);
    assert.equal((await searcher.search('steep leaves', { limit: 1 }))[0].path, 'tea.md');
    await searcher.dispose();
    assert.equal(builds.count, 1, 'the first search after the run read the file');

    writeFileSync(join(root, 'tea.md'), '# Tea\nOolong and pu-erh, brewed in a clay pot.\n');
    const patcher = evalIndex(root, server.url);
    await patcher.update();
    await patcher.dispose();
    assert.equal(builds.count, 1, 'patched for the one note, not rebuilt');
    const patched = await readLexicalFile(dir);
    assert.ok(patched);

    // The same kiln's word index built afresh from the store: equal scores for every query.
    rmSync(file);
    const rebuilt = evalIndex(root, server.url);
    await rebuilt.update({ force: true });
    await rebuilt.dispose();
    const fresh = await readLexicalFile(dir);
    assert.ok(fresh);
    const [a, b] = await Promise.all([NoteBm25.load(patched.snapshot), NoteBm25.load(fresh.snapshot)]);
    for (const query of ['oolong clay pot', 'tea', 'steep leaves', 'garden compost soil', 'water tomatoes morning', 'grind beans']) {
      const byPath = (index: NoteBm25) => new Map(index.search(query, 10).map((h) => [h.path, h.relevance]));
      const [left, right] = [byPath(a), byPath(b)];
      assert.deepEqual([...left.keys()].sort(), [...right.keys()].sort(), query);
      for (const [path, relevance] of left) assert.ok(Math.abs(relevance - right.get(path)!) < 1e-9, `${query}: ${path} ${relevance} vs ${right.get(path)}`);
    }
  } finally {
    builds.restore();
    await server.stop();
    removeKiln(root);
  }
});

/** Indexes the kiln once: what a search then finds, the lexical file and a copy with one byte flipped. */
async function indexedOnce(root: string, url: string): Promise<{ expected: Awaited<ReturnType<typeof search>>; file: string; good: Buffer; damaged: Buffer }> {
  const first = evalIndex(root, url);
  await first.update();
  const expected = await search(first, 'grind the beans');
  await first.dispose();
  const file = join(root, '.hearth/index/flat', LEXICAL_FILE);
  const good = readFileSync(file);
  const damaged = Buffer.from(good);
  damaged[damaged.length - 5] ^= 0xff;
  return { expected, file, good, damaged };
}

/** A fresh index over the kiln as it is now: its search answers `expected` and its log says the lexical file is damaged. */
async function answersDespiteDamage(root: string, apiUrl: string, expected: Awaited<ReturnType<typeof search>>, what: string): Promise<void> {
  const log = recordingLogger();
  const index = evalIndex(root, apiUrl, log);
  assert.deepEqual(await search(index, 'grind the beans'), expected, what);
  assert.ok(log.warnings.some((w) => /lexical index .* is damaged/.test(w)), `${what}: ${log.warnings.join('; ')}`);
  await index.dispose();
}

test('a damaged or foreign lexical file is rebuilt from the store with a warning, never a crash', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  try {
    const { expected, file, good, damaged } = await indexedOnce(root, server.url);
    for (const [what, bytes] of [['a flipped byte', damaged], ['a truncated file', good.subarray(0, good.length >> 1)], ['a foreign file', Buffer.from('{"not": "ours"}')], ['an empty file', Buffer.alloc(0)]] as const) {
      writeFileSync(file, bytes);
      await answersDespiteDamage(root, server.url, expected, what);
      assert.ok(await readLexicalFile(join(root, '.hearth/index/flat')), `${what}: rewritten whole`);
    }
  } finally {
    await server.stop();
    removeKiln(root);
  }
});

/** The file with its header (and body) edited and the checksum made right again: damage the CRC cannot catch. */
function rewritten(good: Buffer, edit: (header: Record<string, unknown>, body: Buffer) => Buffer): Buffer {
  const magic = 'hearth-lexical\n';
  const start = magic.length + 4;
  const length = good.readUInt32LE(magic.length);
  const header = JSON.parse(good.subarray(start, start + length).toString('utf8')) as Record<string, unknown>;
  const body = edit(header, good.subarray(start + length));
  header.crc = crc32(body);
  const headerBytes = Buffer.from(JSON.stringify(header));
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32LE(headerBytes.length);
  return Buffer.concat([Buffer.from(magic), prefix, headerBytes, body]);
}

test('a lexical file of the first format is rebuilt quietly; a note row that is not [path, chunks, hash] is damage', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  try {
    const { expected, file, good } = await indexedOnce(root, server.url);
    rewritten(good, (header, body) => {
      const rows = body.subarray(body.length - Number(header.notesBytes)).toString('utf8').split('\n');
      assert.equal(rows.length, header.notes, 'one note per line: a large file is decoded in slices');
      return body;
    });
    const cases = [
      ['version 1', rewritten(good, (header, body) => ((header.version = 1), body)), false],
      [
        'a malformed note row',
        rewritten(good, (header, body) => {
          const notesAt = body.length - Number(header.notesBytes);
          const rows = body.subarray(notesAt).toString('utf8').split('\n');
          rows[0] = '["bread.md"]';
          const notes = Buffer.from(rows.join('\n'));
          header.notesBytes = notes.length;
          return Buffer.concat([body.subarray(0, notesAt), notes]);
        }),
        true,
      ],
    ] as const;
    for (const [what, bytes, warned] of cases) {
      writeFileSync(file, bytes);
      const log = recordingLogger();
      const index = evalIndex(root, server.url, log);
      assert.deepEqual(await search(index, 'grind the beans'), expected, what);
      assert.equal(log.warnings.some((w) => /lexical index .* is damaged/.test(w)), warned, `${what}: ${log.warnings.join('; ')}`);
      await index.dispose();
      assert.ok(await readLexicalFile(join(root, '.hearth/index/flat')), `${what}: rewritten in this format`);
    }
  } finally {
    await server.stop();
    removeKiln(root);
  }
});

test('warmSearch loads the lexical side before any search; a search arriving meanwhile waits for that load instead of reading the file again', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  try {
    // A damaged file says each read in the log: a second read would say it twice.
    const { expected, file, damaged } = await indexedOnce(root, server.url);
    writeFileSync(file, damaged);
    const log = recordingLogger();
    const index = evalIndex(root, server.url, log);
    const warming = index.warmSearch();
    const found = search(index, 'grind the beans');
    await warming;
    assert.equal(log.warnings.filter((w) => /lexical index .* is damaged/.test(w)).length, 1, 'warming read the file (once)');
    assert.deepEqual(await found, expected);
    assert.equal(log.warnings.filter((w) => /lexical index .* is damaged/.test(w)).length, 1, log.warnings.join('; '));
    await index.dispose();
  } finally {
    await server.stop();
    removeKiln(root);
  }
});

test('killed with SIGKILL at any moment of index runs, the next process searches exactly as a fresh rebuild would', { timeout: 120_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-lexcrash-'));
  const server = await startHashedEmbedServer();
  try {
    for (let attempt = 0; attempt < 6; attempt++) {
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'lexicalCrashWriter.ts'), root], { stdio: ['ignore', 'pipe', 'inherit'] });
      // Wait for a first round (an index exists), then kill at a moment that moves each attempt.
      await new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        child.stdout.on('data', () => (timer ??= setTimeout(() => child.kill('SIGKILL'), 20 + attempt * 37)));
        child.on('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const after = evalIndex(root, server.url);
      const queries = ['shared text', 'round1', `word${attempt}x1`, 'more2 words', 'note 17 part'];
      const got = [];
      for (const q of queries) got.push(await search(after, q));
      await after.dispose();
      // The same index files without the lexical one: built from the store alone.
      const copy = mkdtempSync(join(tmpdir(), 'hearth-lexcrash-copy-'));
      cpSync(root, copy, { recursive: true });
      rmSync(join(copy, '.hearth/index/flat', LEXICAL_FILE), { force: true });
      const fresh = evalIndex(copy, server.url);
      for (const [i, q] of queries.entries()) assert.deepEqual(got[i], await search(fresh, q), `attempt ${attempt}: "${q}"`);
      await fresh.dispose();
      rmSync(copy, { recursive: true, force: true });
    }
    assert.ok(CRASH_NOTES > 0);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('re-index checks size and time first: an unchanged note is not read; a changed size or time is; a stale cache only costs a read', async () => {
  const { utimesSync } = await import('node:fs');
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  try {
    const past = new Date(Date.now() - 60_000);
    for (const name of Object.keys(NOTES)) utimesSync(join(root, name), past, past);
    const first = evalIndex(root, server.url);
    assert.equal((await first.update()).embeddedNotes, 3);
    await first.dispose();
    assert.ok(existsSync(join(root, '.hearth/index/flat/notes.stat.json')));

    // Same size, same time, other bytes: trusted unchanged without reading (what the cache is for).
    writeFileSync(join(root, 'bread.md'), NOTES['bread.md'].replace('yeast', 'YEAST'));
    utimesSync(join(root, 'bread.md'), past, past);
    // Another time: read, hashed, re-embedded.
    writeFileSync(join(root, 'coffee.md'), NOTES['coffee.md'].replace('beans', 'BEANS'));
    const second = evalIndex(root, server.url);
    const report = await second.update();
    assert.deepEqual([report.embeddedNotes, report.unchanged], [1, 2]);
    await second.dispose();
    // A run that finds nothing new leaves the cache file as it is (a no-op writes nothing).
    const cachePath = join(root, '.hearth/index/flat/notes.stat.json');
    utimesSync(cachePath, past, past);
    const noop = evalIndex(root, server.url);
    assert.equal((await noop.update()).embeddedNotes, 0);
    await noop.dispose();
    assert.ok(Math.abs(statSync(cachePath).mtimeMs - past.getTime()) < 1000, 'not rewritten by a no-op run');

    // A cache that disagrees with the store (another process indexed meanwhile) is not trusted.
    const cacheFile = join(root, '.hearth/index/flat/notes.stat.json');
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
    cache.notes['garden.md'][2] = 'not-the-stored-hash';
    writeFileSync(cacheFile, JSON.stringify(cache));
    const third = evalIndex(root, server.url);
    assert.equal((await third.update()).embeddedNotes, 0, 'read, hashed, found unchanged');
    await third.dispose();
    writeFileSync(cacheFile, '{broken');
    const fourth = evalIndex(root, server.url);
    const reread = await fourth.update();
    assert.deepEqual([reread.embeddedNotes, reread.unchanged], [1, 2], 'a broken cache is ignored: every note read, so the same-size edit of bread.md is found now');
    await fourth.dispose();
  } finally {
    await server.stop();
    removeKiln(root);
  }
});

test('a lexical file naming a term twice (checksum right: not written by Hearth) is rebuilt with a warning once its terms are mapped; a note added never takes a listed term\'s id', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  try {
    const { expected, file } = await indexedOnce(root, server.url);
    const dir = join(root, '.hearth/index/flat');
    const read = await readLexicalFile(dir);
    assert.ok(read);
    const terms = [...read.snapshot.terms];
    // Term 0 listed again in place of term 1: the map held one term fewer than the list.
    const crafted = { ...read.snapshot, terms: TermList.of([terms[0], terms[0], ...terms.slice(2)]) };
    const last = terms[terms.length - 1];

    // The editor: warming maps the terms, finds the term listed twice, rebuilds.
    await writeLexicalFile(dir, crafted, read.hashes);
    let log = recordingLogger();
    let index = evalIndex(root, server.url, log);
    await index.warmSearch();
    assert.ok(log.warnings.some((w) => /lexical index .* is damaged \(a term is listed twice\)/.test(w)), log.warnings.join('; '));
    assert.deepEqual(await search(index, 'grind the beans'), expected);
    await index.dispose();
    const rewritten = await readLexicalFile(dir);
    assert.ok(rewritten);
    assert.equal(new Set(rewritten.snapshot.terms).size, rewritten.snapshot.terms.length, 'rewritten without the duplicate');

    // A note changed since the file: adding it maps the terms; its new word is its own, not the last listed term's.
    await writeLexicalFile(dir, crafted, read.hashes);
    writeFileSync(join(root, 'garden.md'), `${NOTES['garden.md']}\nZucchini too.\n`);
    log = recordingLogger();
    index = evalIndex(root, server.url, log);
    await index.update();
    const zucchini = await index.search('zucchini', { limit: 10, lexicalOnly: true });
    assert.deepEqual([...new Set(zucchini.map((r) => r.path))], ['garden.md'], `the last listed term was ${last}`);
    assert.ok(log.warnings.some((w) => /listed twice/.test(w)), log.warnings.join('; '));
    await index.dispose();
  } finally {
    await server.stop();
    removeKiln(root);
  }
});

test('a lexical file whose term offsets run backwards or past the postings (checksum right) is damage: rebuilt with a warning, never a stall or a crash in a search', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  try {
    const { expected } = await indexedOnce(root, server.url);
    const dir = join(root, '.hearth/index/flat');
    const read = await readLexicalFile(dir);
    assert.ok(read);
    const { offsets, terms } = read.snapshot;
    const bean = terms.indexOf('bean');
    assert.ok(bean >= 0);
    // Past the postings then back (the last offset still the count), a first offset not 0.
    const cases: [string, (o: Uint32Array) => void][] = [
      ['an offset past the postings', (o) => (o[bean + 1] = o[o.length - 1] + 1_000_000)],
      ['offsets running backwards', (o) => ([o[bean], o[bean + 1]] = [o[bean + 1], o[bean]])],
      ['a first offset not 0', (o) => (o[0] = 1)],
    ];
    for (const [what, edit] of cases) {
      const crafted = Uint32Array.from(offsets);
      edit(crafted);
      await writeLexicalFile(dir, { ...read.snapshot, offsets: crafted }, read.hashes);
      await answersDespiteDamage(root, server.url, expected, what);
    }
  } finally {
    await server.stop();
    removeKiln(root);
  }
});

test('a lexical file whose field lengths are not finite counts (NaN, infinite, negative; checksum right) is damage: rebuilt with a warning, the scores stay numbers', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  try {
    const { expected } = await indexedOnce(root, server.url);
    const dir = join(root, '.hearth/index/flat');
    const read = await readLexicalFile(dir);
    assert.ok(read);
    for (const bad of [NaN, Infinity, -3]) {
      const lengths = Float32Array.from(read.snapshot.lengths);
      lengths[1] = bad;
      await writeLexicalFile(dir, { ...read.snapshot, lengths }, read.hashes);
      await answersDespiteDamage(root, server.url, expected, String(bad));
    }
  } finally {
    await server.stop();
    removeKiln(root);
  }
});

test('the lexical file read ahead when the store opened, then rewritten by another process and the store reopened (index.changed_on_disk): the older bytes are checked against the newer store by content hash', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  try {
    await indexedOnce(root, server.url);
    const said: string[] = [];
    const editor = evalIndex(root, server.url, sinkLogger((_, message) => void said.push(message)));
    // Opening the store reads lexical.bin ahead (prefetch): these bytes are the file as it is now.
    assert.equal((await editor.counts()).notes, 3);
    const cli = evalIndex(root, server.url);
    writeFileSync(join(root, 'coffee.md'), '# Coffee\nGrind the beans before brewing. Zucchini bread on the side.\n');
    await cli.update();
    assert.deepEqual((await cli.search('zucchini', { limit: 5, lexicalOnly: true })).map((r) => r.path), ['coffee.md']);
    await cli.dispose();
    // The editor's run meets the other process's commit, reopens the store and runs again.
    writeFileSync(join(root, 'bread.md'), '# Bread\nFlour, water, salt and yeast. Zucchini loaf.\n');
    await editor.update();
    assert.ok(said.some((m) => /changed by another process/.test(m)), said.join('; '));
    const found = (await editor.search('zucchini', { limit: 5, lexicalOnly: true })).map((r) => r.path).sort();
    assert.deepEqual(found, ['bread.md', 'coffee.md']);
    const hybrid = await search(editor, 'grind the beans zucchini');
    await editor.dispose();
    const fresh = evalIndex(root, server.url);
    await fresh.update({ force: true });
    assert.deepEqual(hybrid, await search(fresh, 'grind the beans zucchini'), 'the same as a fresh build');
    await fresh.dispose();
  } finally {
    await server.stop();
    removeKiln(root);
  }
});

test('a lexical file that cannot be read when the store opens (a folder in its place, or gone between the look and the read ahead) costs a warning and a build, never a failed search or an unhandled rejection', async () => {
  const root = makeKiln(NOTES);
  const server = await startHashedEmbedServer();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const { expected, file } = await indexedOnce(root, server.url);
    rmSync(file);
    mkdirSync(file);
    writeFileSync(join(file, 'inside'), 'x');
    let log = recordingLogger();
    let index = evalIndex(root, server.url, log);
    assert.deepEqual(await search(index, 'grind the beans'), expected);
    assert.ok(log.warnings.some((w) => /lexical index .* cannot be read/.test(w)), log.warnings.join('; '));
    await index.dispose();
    assert.ok(log.warnings.some((w) => /could not be saved/.test(w)), log.warnings.join('; '));

    // Read ahead as the store opens, then removed before the first search decodes it: the bytes read are used or none are.
    rmSync(file, { recursive: true });
    log = recordingLogger();
    index = evalIndex(root, server.url, log);
    await index.update();
    assert.deepEqual(await search(index, 'grind the beans'), expected);
    await index.dispose();
    assert.ok(existsSync(file), 'written again');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await server.stop();
    removeKiln(root);
  }
});
