// Not part of CI: the team index's locking on a real PostgreSQL server (Debian's PostgreSQL 15,
// which has no pgvector package), where PGlite cannot show it (PGlite runs every connection on one
// backend and serialises transactions). What runs is Hearth's own code on the non-vector tables:
// migrate() (the schema advisory lock, the 1 → 3 and 2 → 3 upgrades), lockNote + writeNoteRows (the per-note
// transaction), and the full-text and property searches.
//   HEARTH_PG15_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx test/bench/pg15Locking.ts
import pg from 'pg';
import { migrate, MIGRATIONS, SCHEMA_VERSION, TEXT_CONFIG } from '../../src/core/index/store/postgresSchema';
import { lockNote, writeNoteRows, type WrittenChunk } from '../../src/core/index/store/postgresNoteRows';
import { lexicalRows, propertyRows } from '../../src/core/index/store/postgresSearch';

const admin = process.env.HEARTH_PG15_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';
const DB = 'hearth_locking';
const KILN = 'team/notes';
const WRITERS = 4;
const NOTES = 300;
const CHUNKS = 10;

function urlOf(database: string): string {
  const url = new URL(admin);
  url.pathname = `/${database}`;
  return url.toString();
}

async function main(): Promise<void> {
  const root = new pg.Client({ connectionString: admin });
  await root.connect();
  console.log((await root.query('SELECT version()')).rows[0].version);
  await root.query(`DROP DATABASE IF EXISTS ${DB}`);
  await root.query(`CREATE DATABASE ${DB}`);
  await root.end();
  const pool = new pg.Pool({ connectionString: urlOf(DB), max: WRITERS + 4 });
  try {
    await withoutPgvector(pool);
    await versionOneTables(pool);
    await concurrentMigrations(pool);
    await stemsUpgrade(pool);
    await concurrentWriters(pool, false);
    await concurrentWriters(pool, true);
    await searches(pool);
  } finally {
    await pool.end();
  }
}

/** migrate() on a server without pgvector, from two clients at once: both refused, nothing half-created. */
async function withoutPgvector(pool: pg.Pool): Promise<void> {
  const outcomes = await Promise.all([0, 1].map(async () => {
    const client = await pool.connect();
    try {
      await migrate(client, 'pg15');
      return 'migrated';
    } catch (error) {
      return `${(error as { code?: string }).code}: ${(error as Error).message}`;
    } finally {
      client.release();
    }
  }));
  const tables = await pool.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'hearth_%'");
  console.log(`1. migrate() without pgvector, two clients: ${outcomes.join(' | ')}; hearth tables left: ${tables.rows[0].n}`);
}

/** Version 1 as shipped, without its vector parts, holding 20k chunks (so the upgrade takes a moment). */
async function versionOneTables(pool: pg.Pool): Promise<void> {
  const ddl = MIGRATIONS[0].replace(/CREATE EXTENSION[^;]*;/, '').replace(/CREATE TABLE hearth_embeddings \([\s\S]*?\);/, '');
  await pool.query(ddl);
  await pool.query('CREATE TABLE hearth_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL); INSERT INTO hearth_schema VALUES (1, 1)');
  await pool.query(`INSERT INTO hearth_notes (kiln, path, content_hash, title) SELECT 'old/kiln', 'n' || i || '.md', 'h' || i, 'Old note ' || i FROM generate_series(1, 2000) i`);
  await pool.query(`INSERT INTO hearth_chunks (kiln, path, ordinal, heading_path, start_line, end_line, text, text_hash)
    SELECT 'old/kiln', 'n' || i || '.md', o, ARRAY['Part ' || o], o * 5 + 1, o * 5 + 4, 'Old chunk ' || o || ' of note ' || i || ' about compost and bees', md5(i || ':' || o)
    FROM generate_series(1, 2000) i, generate_series(0, 9) o`);
}

/** Four clients start at once on a version-1 database: one runs the upgrade, the others wait on the advisory lock and run nothing. */
async function concurrentMigrations(pool: pg.Pool): Promise<void> {
  const waits = sampleLockWaits(pool);
  const started = performance.now();
  const times = await Promise.all(Array.from({ length: 4 }, async () => {
    const client = await pool.connect();
    try {
      const t = performance.now();
      await migrate(client, 'pg15');
      return Math.round(performance.now() - t);
    } finally {
      client.release();
    }
  }));
  const seen = await waits.stop();
  const version = (await pool.query('SELECT version FROM hearth_schema')).rows[0].version;
  const weighted = await pool.query("SELECT count(*)::int AS n FROM hearth_chunks WHERE search_tsv::text LIKE '%''old'':%A%'");
  console.log(
    `2. four clients migrate at once: all done in ${Math.round(performance.now() - started)} ms (each ${times.join(', ')} ms), ` +
      `most lock waits at once: ${seen}, version ${version} (want ${SCHEMA_VERSION}), ` +
      `${weighted.rows[0].n} of 20000 old chunks carry their title at weight A`,
  );
}

/** The 20k chunks back at schema 2 (unstemmed 'simple'), then four clients at once: one upgrades to stems, the others wait. */
async function stemsUpgrade(pool: pg.Pool): Promise<void> {
  await pool.query(`DROP INDEX hearth_chunks_search; ALTER TABLE hearth_chunks DROP COLUMN search_tsv;
    DROP TEXT SEARCH CONFIGURATION ${TEXT_CONFIG}; DROP TEXT SEARCH DICTIONARY hearth_english_stem;`);
  await pool.query(MIGRATIONS[1]);
  await pool.query('UPDATE hearth_schema SET version = 2');
  await pool.query("UPDATE hearth_chunks SET text = text || ' indexed' WHERE ordinal = 0");
  const before = (await pool.query("SELECT count(*)::int AS n FROM hearth_chunks WHERE search_tsv @@ 'index'::tsquery")).rows[0].n;
  const started = performance.now();
  await Promise.all(Array.from({ length: 4 }, async () => {
    const client = await pool.connect();
    try {
      await migrate(client, 'pg15');
    } finally {
      client.release();
    }
  }));
  const ms = Math.round(performance.now() - started);
  const after = (await pool.query("SELECT count(*)::int AS n FROM hearth_chunks WHERE search_tsv @@ 'index'::tsquery")).rows[0].n;
  const version = (await pool.query('SELECT version FROM hearth_schema')).rows[0].version;
  console.log(`2b. schema 2 → 3 (English stems), four clients at once on 20000 chunks: ${ms} ms, version ${version}; chunks matching the stem "index": ${before} → ${after}`);
}

/**
 * WRITERS clients write the same NOTES notes (CHUNKS chunks each), two in each direction, one
 * transaction per note, as several `hearth index` runs do; a reader checks meanwhile that every
 * note it sees is whole. With the note lock (Hearth's way) and without it (what the lock prevents).
 */
async function concurrentWriters(pool: pg.Pool, locked: boolean): Promise<void> {
  const kiln = `${KILN}/${locked ? 'locked' : 'unlocked'}`;
  const errors = new Map<string, number>();
  let halfSeen = 0;
  let reading = true;
  const reader = (async () => {
    while (reading) {
      const rows = await pool.query('SELECT path FROM hearth_chunks WHERE kiln = $1 GROUP BY path HAVING count(*) <> $2', [kiln, CHUNKS]);
      halfSeen += rows.rowCount ?? 0;
    }
  })();
  const waits = sampleLockWaits(pool);
  const started = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
    // Two writers go front to back and two back to front: they meet on every note.
    const order = Array.from({ length: NOTES }, (_, i) => (w % 2 === 0 ? i : NOTES - 1 - i));
    const client = await pool.connect();
    try {
      for (const i of order) {
        const path = `n${i}.md`;
        const records: WrittenChunk[] = Array.from({ length: CHUNKS }, (_, o) => ({
          id: `${path}#${o}`, notePath: path, title: `Note ${i}`, headingPath: [`Part ${o}`], startLine: o * 5 + 1, endLine: o * 5 + 4,
          text: `Chunk ${o} of note ${i}: compost heaps and bees, written by writer ${w}`, contentHash: `h${i}`, textHash: `t${i}:${o}`,
        }));
        await client.query('BEGIN');
        try {
          if (locked) await lockNote(client, kiln, path);
          await writeNoteRows(client, kiln, path, `h${i}`, records, { frontmatter: { writer: w }, tags: ['team'], links: [] });
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          const code = (error as { code?: string }).code ?? 'unknown';
          errors.set(code, (errors.get(code) ?? 0) + 1);
        }
      }
    } finally {
      client.release();
    }
  }));
  const ms = Math.round(performance.now() - started);
  const seen = await waits.stop();
  reading = false;
  await reader;
  const counts = await pool.query('SELECT count(*)::int AS chunks, count(DISTINCT path)::int AS notes FROM hearth_chunks WHERE kiln = $1', [kiln]);
  const broken = await pool.query('SELECT count(*)::int AS n FROM (SELECT path FROM hearth_chunks WHERE kiln = $1 GROUP BY path HAVING count(*) <> $2) x', [kiln, CHUNKS]);
  console.log(
    `${locked ? '4' : '3'}. ${WRITERS} writers x ${NOTES} notes x ${CHUNKS} chunks, ${locked ? 'with the per-note advisory lock' : 'WITHOUT the note lock'}: ${ms} ms, ` +
      `${counts.rows[0].chunks} chunks in ${counts.rows[0].notes} notes (one run: ${NOTES * CHUNKS}), ${broken.rows[0].n} notes not whole at the end, ` +
      `${halfSeen} half notes seen by the reader, most lock waits at once: ${seen}, ` +
      `failed note transactions: ${errors.size === 0 ? 'none' : [...errors].map(([code, n]) => `${n} x SQLSTATE ${code}`).join(', ')}`,
  );
}

async function searches(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await writeNoteRows(client, 'search', 'a-diary.md', 'd', [chunk('a-diary.md', 'Diary', `Today ${'compost '.repeat(30)}`)]);
    await writeNoteRows(client, 'search', 'compost.md', 'c', [chunk('compost.md', 'Compost', 'Leaves and scraps turn into soil, indexed by heap.')]);
    await writeNoteRows(client, 'search', 'fr.md', 'f', [chunk('fr.md', 'Desserts', 'La crème brûlée du café. 東京の天気は晴れです。')], { frontmatter: { status: 'Draft', published: '2024-05-01T00:00:00.000Z' }, tags: ['food'], links: [] });
    const text = await lexicalRows(client, 'search', 'compost', 5, 3);
    const accents = await lexicalRows(client, 'search', 'creme brulee', 5, 3);
    const cjk = await lexicalRows(client, 'search', '天気', 5, 3);
    const hostile = await lexicalRows(client, 'search', "it's & | ! ( ) :* <-> \\ compost", 5, 3);
    const stems = await lexicalRows(client, 'search', 'indexing leaf', 5, 3);
    const props = await propertyRows(client, 'search', [['status', 'draft'], ['published', '2024-05-01'], ['tags', '#food']], 5);
    console.log(
      `5. searches on PostgreSQL 15: "compost" → ${text.map((r) => `${r.path} ${r.note.toFixed(2)}`).join(', ')}; "creme brulee" → ${accents[0]?.path}; ` +
        `"天気" → ${cjk[0]?.path}; tsquery syntax in the query → ${hostile[0]?.path}; "indexing leaf" (stems) → ${stems[0]?.path}; status=draft published=2024-05-01 tags=#food → ${props.map((p) => p.path).join(', ')}`,
    );
  } finally {
    client.release();
  }
}

function chunk(path: string, title: string, text: string): WrittenChunk {
  return { id: `${path}#0`, notePath: path, title, headingPath: [], startLine: 1, endLine: 3, text, contentHash: 'x', textHash: `${path}:0` };
}

/** Samples pg_locks every 5 ms: the most lock waits seen at one time, by kind of lock (advisory, transactionid: a row). */
function sampleLockWaits(pool: pg.Pool): { stop(): Promise<string> } {
  const most = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = await pool.query<{ locktype: string; n: number }>('SELECT locktype, count(*)::int AS n FROM pg_locks WHERE NOT granted GROUP BY locktype');
      for (const row of rows.rows) most.set(row.locktype, Math.max(most.get(row.locktype) ?? 0, row.n));
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return most.size === 0 ? 'none' : [...most].map(([type, n]) => `${n} on ${type}`).join(', ');
    },
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
