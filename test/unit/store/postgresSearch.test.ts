// Search in the team database (issue 18): text, property, semantic and hybrid search answered by
// PostgreSQL itself (full-text search over the weighted generated tsvector and its GIN index, the
// frontmatter jsonb, HNSW), with the note-level ranking of issue 15, against pglite-server over
// the real wire protocol.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { LEXICAL_FILE } from '../../../src/core/index/words/lexicalFile';
import { SCHEMA_VERSION } from '../../../src/core/index/store/postgresSchema';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { pgIndex, startPgServer, usePgServers } from './pgHelpers';

const { server, embeddings } = usePgServers();

const NOTES: Record<string, string> = {
  // First in path order and full of the word: the disk's line search would put it first.
  'a-diary.md': `# Diary\n\nToday: ${'compost '.repeat(40)}and more compost.\n\n## Later\n\nCompost again, compost always.\n`,
  'compost.md': '# Compost\n\nA heap of leaves and kitchen scraps turns into soil in a year.\n',
  'garden/beds.md': '---\nstatus: Draft\ntags: [garden, soil]\npublished: 2024-05-01\n---\n# Raised beds\n\nCedar boards, a metre wide.\n',
  'garden/tools.md': '---\nstatus: done\ntags: [garden]\nrating: 4\n---\n# Tools\n\nA spade and a fork.\n',
  'long.md': `# Long note\n\n${Array.from({ length: 12 }, (_, i) => `## Part ${i}\n\nBees visit the clover in part ${i}.\n`).join('\n')}`,
  'jp.md': '# 天気\n\n東京の天気は晴れです。\n',
  'fr.md': '# Desserts\n\nLa crème brûlée du café.\n',
};

test('text search runs in the database: a title match ranks above a note repeating the word in its body, scores in 0–1', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'search/text' });
  try {
    await index.update();
    const hits = await index.search('compost', { mode: 'text', limit: 10 });
    assert.deepEqual(hits.map((h) => h.path), ['compost.md', 'a-diary.md'], JSON.stringify(hits));
    assert.ok(hits[0].score > hits[1].score && hits[0].score <= 1 && hits[1].score > 0, JSON.stringify(hits.map((h) => h.score)));
    assert.equal(hits[0].score, 1, 'every query word in the title: full relevance');
    // The diary's sections that hold the word, best first.
    assert.ok(hits[1].sections!.length >= 1 && hits[1].sections!.every((s) => s.score > 0 && s.score <= 1));
    // Accents and scripts without spaces: one configuration serves every language.
    assert.equal((await index.search('creme brulee', { mode: 'text', limit: 3 }))[0]?.path, 'fr.md');
    assert.equal((await index.search('天気', { mode: 'text', limit: 3 }))[0]?.path, 'jp.md');
    assert.equal((await index.search('東京', { mode: 'text', limit: 3 }))[0]?.path, 'jp.md', 'a word inside a run of characters');
    // The database answers, not the files: a note removed from disk stays findable until re-indexed.
    rmSync(join(kiln, 'compost.md'));
    assert.equal((await index.search('compost', { mode: 'text', limit: 1 }))[0]?.path, 'compost.md');
    // Per-chunk shape with --chunks.
    const chunks = await index.search('compost', { mode: 'text', limit: 3, chunks: true });
    assert.ok(chunks.length > 0 && chunks.every((c) => c.sections === undefined));
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('text search weighs a word by its rarity: a rare word in a body beats a word every note has in a title', async () => {
  const files: Record<string, string> = { 'the.md': '# The\n\nAn opening line.\n', 'pests.md': '# Pests\n\nAphids gather on the roses.\n' };
  for (let i = 0; i < 12; i++) files[`n${i}.md`] = `# Note ${i}\n\nThe weather on day ${i}.\n`;
  const kiln = makeKiln(files);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'search/rarity' });
  try {
    await index.update();
    const hits = await index.search('the aphids', { mode: 'text', limit: 5 });
    assert.equal(hits[0]?.path, 'pests.md', JSON.stringify(hits.map((h) => [h.path, h.score])));
    assert.ok(hits[0].score < 1, 'neither word where it counts most');
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('hybrid search in the database: one row per note, the clear lexical match first despite a noise embedder, no in-process BM25', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'search/hybrid' });
  try {
    await index.update();
    const hits = await index.search('bees clover part', { mode: 'hybrid', limit: 10 });
    assert.equal(hits[0]?.path, 'long.md');
    assert.equal(new Set(hits.map((h) => h.path)).size, hits.length, 'one row per note');
    assert.ok(hits[0].sections!.length >= 5, 'the note’s other matching sections');
    assert.ok(hits.every((h) => h.score >= 0 && h.score <= 1));
    assert.equal((await index.search('compost', { mode: 'hybrid', limit: 3 }))[0]?.path, 'compost.md');
    assert.equal((await index.search('compost', { mode: 'hybrid', limit: 3, lexicalOnly: true }))[0]?.path, 'compost.md');
    const semantic = await index.search('bees clover', { mode: 'semantic', limit: 10 });
    assert.equal(new Set(semantic.map((h) => h.path)).size, semantic.length);
    assert.equal(existsSync(join(index.dir, LEXICAL_FILE)), false, 'no BM25 index was built beside the database');
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('property search runs over the frontmatter jsonb: case-insensitive scalars, lists, dates, tags; bad queries explain', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'search/property' });
  try {
    await index.update();
    const paths = async (query: string) => (await index.search(query, { mode: 'property', limit: 10 })).map((h) => h.path);
    assert.deepEqual(await paths('status=draft'), ['garden/beds.md']);
    assert.deepEqual(await paths('tags=garden'), ['garden/beds.md', 'garden/tools.md']);
    assert.deepEqual(await paths('tags=#soil status=DRAFT'), ['garden/beds.md']);
    assert.deepEqual(await paths('published=2024-05-01'), ['garden/beds.md']);
    assert.deepEqual(await paths('rating=4'), ['garden/tools.md']);
    assert.deepEqual(await paths('status=null'), [], 'an absent property never matches a value');
    assert.deepEqual(await paths(`status=');DROP_TABLE_hearth_notes;-- x'"=1`), []);
    const [hit] = await index.search('status=draft', { mode: 'property', limit: 1 });
    assert.equal(hit.snippet, 'status: "Draft"');
    assert.ok(hit.endLine >= 1);
    await assert.rejects(index.search('no-equals-sign', { mode: 'property' }), (error: unknown) => (error as { code?: string }).code === 'search.bad_query');
    // From the database: the file is gone, the indexed note is still found.
    rmSync(join(kiln, 'garden/tools.md'));
    assert.deepEqual(await paths('rating=4'), ['garden/tools.md']);
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('hostile queries answer or explain, never a SQL error: empty, 10 000 characters, tsquery syntax, CJK, emoji', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'search/hostile' });
  try {
    await index.update();
    const queries = [
      '', '   ', 'compost '.repeat(1250), 'x'.repeat(10_000), "it's & | ! ( ) :* <-> \\ \" ' '' compost",
      "'); DROP TABLE hearth_chunks; --", '!!!', '<->', ':*', '日本語のテキスト', '😀🔥', 'e\u0000vil compost', '\\', 'a:* & b', 'status=a\u0000b',
    ];
    for (const mode of ['text', 'hybrid', 'semantic'] as const) {
      for (const query of queries) {
        const hits = await index.search(query, { mode, limit: 5 });
        assert.ok(Array.isArray(hits), `${mode} ${JSON.stringify(query.slice(0, 40))}`);
        assert.ok(hits.every((h) => h.score >= 0 && h.score <= 1));
      }
    }
    // Property search explains what is not key=value, and takes anything that is.
    for (const query of [...queries, 'k=\u0000', `${'k'.repeat(5000)}=v`, "'=''", 'tags=日本 status=😀']) {
      try {
        assert.ok(Array.isArray(await index.search(query, { mode: 'property', limit: 5 })));
      } catch (error) {
        assert.equal((error as { code?: string }).code, 'search.bad_query', `property ${JSON.stringify(query.slice(0, 40))}: ${String(error)}`);
      }
    }
    assert.equal((await index.search("it's & | ! ( ) :* compost", { mode: 'text', limit: 1 }))[0]?.path, 'compost.md', 'syntax characters are only text');
    assert.equal((await index.search('compost '.repeat(1250), { mode: 'text', limit: 1 }))[0]?.path, 'compost.md');
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      assert.equal((await client.query("SELECT to_regclass('hearth_chunks') IS NOT NULL AS ok")).rows[0].ok, true);
    } finally {
      await client.end();
    }
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('a database at the previous schema (version 1) is upgraded in place: nothing embedded again, full-text search works', async () => {
  const own = await startPgServer();
  const kiln = makeKiln(NOTES);
  const client = new pg.Client({ connectionString: own.url });
  await client.connect();
  try {
    const first = pgIndex(kiln, own.url, embeddings.url, { kiln_id: 'search/migrate' });
    const built = await first.update();
    await first.dispose();
    // Back to version 1 as it was shipped: a plain tsvector of the text, no title or heading columns.
    await client.query(`DROP INDEX hearth_chunks_search;
      ALTER TABLE hearth_chunks DROP COLUMN search_tsv, DROP COLUMN title, DROP COLUMN heading;
      DROP FUNCTION hearth_words(text);
      ALTER TABLE hearth_chunks ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED;
      CREATE INDEX hearth_chunks_tsv ON hearth_chunks USING gin (tsv);
      UPDATE hearth_schema SET version = 1;`);
    const mark = embeddings.texts();
    const again = pgIndex(kiln, own.url, embeddings.url, { kiln_id: 'search/migrate' });
    try {
      const report = await again.update();
      assert.equal(embeddings.texts() - mark, 0, 'the upgrade re-embeds nothing');
      assert.equal(report.unchanged, Object.keys(NOTES).length);
      assert.equal(report.chunks, built.chunks);
      assert.equal((await client.query('SELECT version FROM hearth_schema')).rows[0].version, SCHEMA_VERSION);
      const columns = (await client.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'hearth_chunks'")).rows.map((r) => r.column_name as string);
      assert.ok(columns.includes('search_tsv') && !columns.includes('tsv'), columns.join());
      const weighted = await client.query("SELECT count(*)::int AS n FROM hearth_chunks WHERE path = 'compost.md' AND search_tsv::text LIKE '%''compost'':%A%'");
      assert.equal(weighted.rows[0].n, 1, 'existing rows carry the title at weight A');
      const hits = await again.search('compost', { mode: 'text', limit: 2 });
      assert.deepEqual(hits.map((h) => h.path), ['compost.md', 'a-diary.md']);
      // The migration is idempotent: a second client finds the schema current and changes nothing.
      const third = pgIndex(kiln, own.url, embeddings.url, { kiln_id: 'search/migrate' });
      assert.equal((await third.update()).unchanged, Object.keys(NOTES).length);
      await third.dispose();
    } finally {
      await again.dispose();
    }
  } finally {
    await client.end();
    await own.stop();
    removeKiln(kiln);
  }
});
