// English stems in the team database (schema 3): the generated tsvector and the query both go
// through hearth_english, so "indexing" finds "indexed" as in the flat store's lexical side, and a
// database at schema 2 is upgraded in place without re-embedding — against pglite-server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { MIGRATIONS, SCHEMA_VERSION, TEXT_CONFIG } from '../../../src/core/index/store/postgresSchema';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { pgIndex, startPgServer, usePgServers } from './pgHelpers';

const { server, embeddings } = usePgServers();

const NOTES: Record<string, string> = {
  'nightly.md': '# Nightly job\n\nThe notes were indexed overnight.\n\n## Afterwards\n\nThe gardeners planted bulbs.\n',
  'conversions.md': '# Conversions\n\nA table of units.\n',
  'cafe.md': '# Menu\n\nLa crème brûlée du café, généreuse.\n',
  'short.md': '# To be\n\nTo be or not to be.\n',
};

async function textPaths(index: ReturnType<typeof pgIndex>, query: string): Promise<string[]> {
  return (await index.search(query, { mode: 'text', limit: 5 })).map((h) => h.path);
}

test('text search matches English word forms in the database: indexing finds indexed, planting finds planted, convert finds a Conversions title', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'stem/forms' });
  try {
    await index.update();
    assert.deepEqual(await textPaths(index, 'indexing'), ['nightly.md']);
    assert.deepEqual(await textPaths(index, 'INDEXES'), ['nightly.md']);
    assert.deepEqual(await textPaths(index, 'planting gardener'), ['nightly.md']);
    const [title] = await index.search('conversion', { mode: 'text', limit: 1 });
    assert.equal(title?.path, 'conversions.md');
    assert.equal(title.score, 1, 'the stem of a title word is a title match');
    // Accents fold before stemming; short and common words stay words (no stop list).
    assert.deepEqual(await textPaths(index, 'creme brulee'), ['cafe.md']);
    assert.deepEqual(await textPaths(index, 'to be or not to be'), ['short.md']);
    // Hybrid's lexical side is the same search.
    assert.equal((await index.search('indexing', { mode: 'hybrid', limit: 3, lexicalOnly: true }))[0]?.path, 'nightly.md');
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('stemmed queries with hostile input answer or explain, never a SQL error: tsquery syntax, 10 000 characters, empty', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'stem/hostile' });
  try {
    await index.update();
    assert.deepEqual(await textPaths(index, "!&|():*'\\"), []);
    assert.deepEqual(await textPaths(index, "indexing:* & !(planted) | 'bulbs' \\"), ['nightly.md'], 'syntax characters are plain text around the words');
    assert.deepEqual(await textPaths(index, "index'ing"), ['nightly.md'], 'a quote splits the word, it never closes a lexeme');
    assert.deepEqual(await textPaths(index, 'indexing '.repeat(1112)), ['nightly.md'], '10 000 characters');
    assert.deepEqual(await textPaths(index, 'x'.repeat(10_000)), []);
    assert.deepEqual(await textPaths(index, ''), []);
    assert.deepEqual(await textPaths(index, ' \t\n'), []);
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('a database at schema 2 (simple, unstemmed) is upgraded in place to stems: nothing embedded again, every row kept, idempotent', async () => {
  const own = await startPgServer();
  const kiln = makeKiln(NOTES);
  const client = new pg.Client({ connectionString: own.url });
  await client.connect();
  const count = async (sql: string) => (await client.query<{ n: number }>(sql)).rows[0].n;
  try {
    const first = pgIndex(kiln, own.url, embeddings.url, { kiln_id: 'stem/migrate' });
    const built = await first.update();
    await first.dispose();
    // Back to schema 2 as it was shipped: its migration run again (it replaces the column with the 'simple' one).
    await client.query(`DROP INDEX hearth_chunks_search; ALTER TABLE hearth_chunks DROP COLUMN search_tsv;
      DROP TEXT SEARCH CONFIGURATION ${TEXT_CONFIG}; DROP TEXT SEARCH DICTIONARY hearth_english_stem;`);
    await client.query(MIGRATIONS[1]);
    await client.query('UPDATE hearth_schema SET version = 2');
    assert.equal(await count("SELECT count(*)::int AS n FROM hearth_chunks WHERE search_tsv @@ 'index'::tsquery"), 0, 'schema 2 holds the words unstemmed');
    const vectors = await count('SELECT count(*)::int AS n FROM hearth_embeddings');
    const mark = embeddings.texts();

    // Two members start at once: one upgrades under the advisory lock, the other waits and finds it done.
    const [a, b] = [pgIndex(kiln, own.url, embeddings.url, { kiln_id: 'stem/migrate' }), pgIndex(kiln, own.url, embeddings.url, { kiln_id: 'stem/migrate' })];
    try {
      const reports = await Promise.all([a.update(), b.update()]);
      assert.equal(embeddings.texts() - mark, 0, 'the upgrade re-embeds nothing');
      for (const report of reports) assert.equal(report.unchanged, Object.keys(NOTES).length);
      assert.equal(await count('SELECT count(*)::int AS n FROM hearth_embeddings'), vectors, 'every vector kept, none added');
      assert.equal(await count('SELECT count(*)::int AS n FROM hearth_chunks'), built.chunks);
      assert.equal((await client.query('SELECT version FROM hearth_schema')).rows[0].version, SCHEMA_VERSION);
      assert.equal(SCHEMA_VERSION, 4, 'stems (3), then the kiln claims (4)');
      assert.equal(await count("SELECT count(*)::int AS n FROM hearth_chunks WHERE path = 'nightly.md' AND search_tsv @@ 'index'::tsquery"), 1, 'existing rows now hold stems');
      assert.deepEqual(await textPaths(a, 'indexing'), ['nightly.md']);
      assert.equal(await count("SELECT count(*)::int AS n FROM pg_ts_config WHERE cfgname = 'hearth_english'"), 1);
    } finally {
      await a.dispose();
      await b.dispose();
    }
    // Migration 3 again over its own result (a half-restored database, a hand re-run) changes nothing and fails nowhere.
    await client.query(MIGRATIONS[2]);
    assert.equal(await count("SELECT count(*)::int AS n FROM hearth_chunks WHERE search_tsv @@ 'index'::tsquery"), 1);
    // A database from a newer Hearth is still refused, not altered.
    await client.query('UPDATE hearth_schema SET version = $1', [SCHEMA_VERSION + 1]);
    const newer = pgIndex(kiln, own.url, embeddings.url, { kiln_id: 'stem/migrate' });
    try {
      await assert.rejects(newer.update(), (error: unknown) => (error as { code?: string }).code === 'index.schema_too_new');
      assert.equal((await client.query('SELECT version FROM hearth_schema')).rows[0].version, SCHEMA_VERSION + 1);
    } finally {
      await newer.dispose();
    }
  } finally {
    await client.end();
    await own.stop();
    removeKiln(kiln);
  }
});
