// The lexical file read by position (DiskLexicon): a cold search reads the term list, offsets,
// lengths and note rows, then only its query's postings — scoring exactly as the index in memory —
// and a truncated, damaged or crafted file is a clear error (a search then rebuilds it with a warning).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChunkRecord } from '../../../src/core/index/store/vectorStore';
import { DiskLexicon } from '../../../src/core/index/words/diskLexicon';
import { crcOf, LEXICAL_FILE, LexicalFileError, writeLexicalFile } from '../../../src/core/index/words/lexicalFile';
import { bodyLayout, type LexicalHeader } from '../../../src/core/index/words/lexicalLayout';
import { NoteBm25 } from '../../../src/core/index/words/noteBm25';
import { TermList } from '../../../src/core/index/words/termList';
import { startHashedEmbedServer } from '../../eval/hashedEmbedServer';
import { evalIndex, recordingLogger } from './lexicalHelpers';
import { makeKiln, removeKiln } from './kilnIndexHelpers';

const WORDS = 'garden tomato basil water morning bread flour yeast coffee beans grind compost heap spring summer autumn winter seed soil leaf'.split(' ');

/** Notes of two chunks each, words drawn deterministically from WORDS. */
function notes(count: number): ChunkRecord[][] {
  let seed = 7;
  const word = () => WORDS[(seed = (seed * 48271) % 2147483647) % WORDS.length];
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  return Array.from({ length: count }, (_, i) => {
    const notePath = `folder${i % 3}/note ${i} "${word()}".md`;
    const title = `${word()} ${i}`;
    return [0, 1].map((c) => ({ id: `${notePath}#${c}`, notePath, title, headingPath: [title, ...(c ? [words(2)] : [])], startLine: 1 + c * 10, endLine: 9 + c * 10, text: words(30), contentHash: `h${i}` }));
  });
}

function withDir(): { dir: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-disk-lexicon-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

async function written(dir: string, stamp: string): Promise<{ index: NoteBm25; file: string }> {
  const all = notes(60);
  const index = await NoteBm25.build(all);
  await writeLexicalFile(dir, index.snapshot(), new Map(all.map((chunks) => [chunks[0].notePath, chunks[0].contentHash])), stamp);
  return { index, file: join(dir, LEXICAL_FILE) };
}

/** The file's header and where its body starts. */
function headerOf(bytes: Buffer): { header: LexicalHeader; bodyAt: number } {
  const length = bytes.readUInt32LE('hearth-lexical\n'.length);
  const start = 'hearth-lexical\n'.length + 4;
  return { header: JSON.parse(bytes.subarray(start, start + length).toString('utf8')) as LexicalHeader, bodyAt: start + length };
}

const isDamage = (pattern: RegExp) => (error: unknown) => error instanceof LexicalFileError && error.code === 'index.lexical_damaged' && pattern.test(error.message);

test('read by position, the lexical file scores every query as the index in memory does: note relevances, notes asked for by path, sections', async () => {
  const { dir, done } = withDir();
  try {
    const { index } = await written(dir, 'flat/1/100/7');
    const disk = await DiskLexicon.open(dir, 'flat/1/100/7');
    assert.ok(disk, 'opened for its own stamp');
    try {
      const section = notes(60)[4][1];
      for (const query of ['tomato basil', 'grind the coffee beans', 'winter', 'no such words', 'compost heap spring summer seed']) {
        const also = ['folder1/note 4 "' + section.notePath.split('"')[1] + '".md', section.notePath, 'missing.md'];
        assert.deepEqual(disk.relevances(disk.query(query), 10, also), index.relevances(index.query(query), 10, also), query);
        assert.equal(disk.sectionRelevance(disk.query(query), section), index.sectionRelevance(index.query(query), section), `${query}: a section`);
      }
      assert.equal(disk.hashes().get(section.notePath), 'h4');
    } finally {
      await disk.close();
    }
    assert.equal(await DiskLexicon.open(dir, 'flat/1/200/9'), undefined, 'written for another commit: left to the whole-file reader');
    const any = await DiskLexicon.open(dir, null);
    assert.ok(any, 'any commit, for a caller that checks each note itself');
    await any.close();
  } finally {
    done();
  }
});

test('a truncated lexical file (in its postings or its rows) or one of an unknown version is a clear error naming the folder; an earlier version is left to the whole-file reader', async () => {
  const { dir, done } = withDir();
  try {
    const { file } = await written(dir, 's');
    const good = readFileSync(file);
    const { header, bodyAt } = headerOf(good);
    const layout = bodyLayout(header);
    for (const [what, cut] of [['in the postings', bodyAt + layout.postDocs[0] + 8], ['in the note rows', good.length - 3], ['in the header', 30]] as const) {
      writeFileSync(file, good.subarray(0, cut));
      await assert.rejects(DiskLexicon.open(dir, 's'), isDamage(new RegExp(`${dir}.*(shorter|not a Hearth)`)), what);
    }
    for (const [version, outcome] of [[2, 'older'], [99, 'unknown']] as const) {
      const text = good.toString('latin1').replace('"version":3', `"version":${version}`);
      writeFileSync(file, Buffer.from(text, 'latin1'));
      if (outcome === 'older') assert.equal(await DiskLexicon.open(dir, 's'), undefined, 'version 2: read whole instead');
      else await assert.rejects(DiskLexicon.open(dir, 's'), isDamage(/unknown version 99/));
    }
  } finally {
    done();
  }
});

test("a flipped byte in one term's postings is found when a query reads that term, not before; a crafted path order with a right checksum is damage", async () => {
  const { dir, done } = withDir();
  try {
    const { file } = await written(dir, 's');
    const good = readFileSync(file);
    const { header, bodyAt } = headerOf(good);
    const layout = bodyLayout(header);
    const terms = TermList.parse(good.subarray(bodyAt, bodyAt + header.termBytes).toString('utf8'), header.terms);
    const offsets = new Uint32Array(good.buffer.slice(good.byteOffset + bodyAt + layout.offsets[0], good.byteOffset + bodyAt + layout.offsets[0] + layout.offsets[1]));
    const id = terms.indexOf('basil');
    const damaged = Buffer.from(good);
    damaged[bodyAt + layout.postTfs[0] + offsets[id] * 8] ^= 0x01;
    writeFileSync(file, damaged);
    const disk = await DiskLexicon.open(dir, 's');
    assert.ok(disk, 'the postings are not read on open');
    try {
      assert.ok(disk.relevances(disk.query('winter'), 5, []).size > 0, 'another term reads fine');
      assert.throws(() => disk.query('basil tomato'), isDamage(/postings of a term fail their checksum/));
    } finally {
      await disk.close();
    }

    // The path order names one note twice, and the lazy parts' checksum is made right again.
    const crafted = Buffer.from(good);
    const order = bodyAt + layout.order[0];
    crafted.writeUInt32LE(crafted.readUInt32LE(order + 4), order);
    const part = (p: readonly [number, number]) => crafted.subarray(bodyAt + p[0], bodyAt + p[0] + p[1]);
    const lazyCrc = crcOf([part(layout.terms), part(layout.offsets), part(layout.lengths), part(layout.rowStarts), part(layout.order), part(layout.termCrcs), part(layout.notes)]);
    writeFileSync(file, Buffer.from(crafted.toString('latin1').replace(`"lazyCrc":${header.lazyCrc}`, `"lazyCrc":${lazyCrc}`.padEnd(`"lazyCrc":${header.lazyCrc}`.length, ' ')), 'latin1'));
    await assert.rejects(DiskLexicon.open(dir, 's'), isDamage(/path order/));
  } finally {
    done();
  }
});

test('a cold search reads only its own postings: damage elsewhere goes unread; damage in its postings costs a warning and a rebuild, the same results', async () => {
  const root = makeKiln({
    'garden.md': '# Garden\nTomatoes and basil grow by the wall.\n\n## Watering\nWater the tomatoes every morning.\n',
    'bread.md': '# Bread\nFlour, water, salt and yeast.\n',
    'coffee.md': '# Coffee\nGrind the beans before brewing.\n',
  });
  const server = await startHashedEmbedServer();
  try {
    const first = evalIndex(root, server.url);
    await first.update();
    const expected = await first.search('tomatoes morning', { limit: 10 });
    await first.dispose();
    const file = join(root, '.hearth/index/flat', LEXICAL_FILE);
    const good = readFileSync(file);
    const { header, bodyAt } = headerOf(good);
    const layout = bodyLayout(header);
    const terms = TermList.parse(good.subarray(bodyAt, bodyAt + header.termBytes).toString('utf8'), header.terms);
    const offsets = new Uint32Array(good.buffer.slice(good.byteOffset + bodyAt + layout.offsets[0], good.byteOffset + bodyAt + layout.offsets[0] + layout.offsets[1]));
    for (const [term, warned] of [['yeast', false], ['tomato', true]] as const) {
      const damaged = Buffer.from(good);
      damaged[bodyAt + layout.postTfs[0] + offsets[terms.indexOf(term)] * 8] ^= 0x02;
      writeFileSync(file, damaged);
      const log = recordingLogger();
      const index = evalIndex(root, server.url, log);
      assert.deepEqual(await index.search('tomatoes morning', { limit: 10 }), expected, term);
      assert.equal(log.warnings.some((w) => /lexical index .* is damaged/.test(w)), warned, `${term}: ${log.warnings.join('; ')}`);
      await index.dispose();
    }
  } finally {
    await server.stop();
    removeKiln(root);
  }
});
