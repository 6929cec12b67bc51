import type { PoolClient } from 'pg';
import { HearthError } from '../../errors';
import { rollback } from './postgresConnection';

/** The schema version this Hearth writes; a database at a higher one was migrated by a newer Hearth. */
export const SCHEMA_VERSION = 4;

/** Any key: every Hearth serialises its migrations on it (pg_advisory_xact_lock takes a bigint). */
const MIGRATION_LOCK = 0x4865617274680001n;

/**
 * Migrations, in order: migration i brings the schema from version i to i + 1. Each runs in the
 * one transaction that holds the advisory lock and records the new version, so a client that
 * waits for the lock sees the version the first one wrote and runs nothing twice.
 *
 * Embeddings are keyed by (model, text hash) only, with the model row naming provider, model and
 * dimension: every kiln and every member of the database shares them. The vector column has no
 * fixed dimension; each model gets its own partial HNSW index over a cast to its dimension
 * (ensureVectorIndex).
 */
/**
 * The text-search configuration of the chunks' `search_tsv` and of every query (migration 3):
 * both sides must stem alike, or an inflected word matches nothing.
 */
export const TEXT_CONFIG = 'hearth_english';
const STEM_DICTIONARY = 'hearth_english_stem';

/** Accented Latin letters (upper and lower case) and their plain lower-case letter, for hearth_words. */
const FOLD_FROM =
  'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳ';
const FOLD_TO =
  'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyy';

export const MIGRATIONS: readonly string[] = [
  `CREATE EXTENSION IF NOT EXISTS vector;
   CREATE TABLE hearth_models (
     id serial PRIMARY KEY,
     provider text NOT NULL,
     model text NOT NULL,
     dim integer NOT NULL CHECK (dim > 0),
     UNIQUE (provider, model, dim)
   );
   CREATE TABLE hearth_embeddings (
     model_id integer NOT NULL REFERENCES hearth_models (id) ON DELETE CASCADE,
     text_hash text NOT NULL,
     embedding vector NOT NULL,
     PRIMARY KEY (model_id, text_hash)
   );
   CREATE TABLE hearth_notes (
     kiln text NOT NULL,
     path text NOT NULL,
     content_hash text NOT NULL,
     title text NOT NULL DEFAULT '',
     frontmatter jsonb NOT NULL DEFAULT '{}'::jsonb,
     tags text[] NOT NULL DEFAULT '{}',
     links text[] NOT NULL DEFAULT '{}',
     updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (kiln, path)
   );
   CREATE INDEX hearth_notes_frontmatter ON hearth_notes USING gin (frontmatter jsonb_path_ops);
   CREATE INDEX hearth_notes_tags ON hearth_notes USING gin (tags);
   CREATE TABLE hearth_chunks (
     kiln text NOT NULL,
     path text NOT NULL,
     ordinal integer NOT NULL,
     heading_path text[] NOT NULL DEFAULT '{}',
     start_line integer NOT NULL,
     end_line integer NOT NULL,
     text text NOT NULL,
     text_hash text NOT NULL,
     tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
     PRIMARY KEY (kiln, path, ordinal),
     FOREIGN KEY (kiln, path) REFERENCES hearth_notes (kiln, path) ON DELETE CASCADE
   );
   CREATE INDEX hearth_chunks_text_hash ON hearth_chunks (text_hash);
   CREATE INDEX hearth_chunks_tsv ON hearth_chunks USING gin (tsv);`,
  // 1 → 2: full-text search in the database. hearth_words folds what the 'simple' configuration
  // leaves (accents, upper case the C locale keeps; Chinese, Japanese and Korean written without
  // spaces become one word per character), so one config serves every language. The weighted
  // tsvector is generated from the note's title and file name (A), the first chunk's text (B: a
  // note's opening says what it is about), the heading path (C) and the body (D); ts_rank's
  // weights (postgresSearch.ts) rank the fields. Existing rows are filled in place:
  // nothing is embedded again.
  `CREATE OR REPLACE FUNCTION hearth_words(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $words$
     SELECT regexp_replace(translate(lower(t), '${FOLD_FROM}', '${FOLD_TO}'),
       '([\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff])', ' \\1 ', 'g')
   $words$;
   ALTER TABLE hearth_chunks ADD COLUMN IF NOT EXISTS title text NOT NULL DEFAULT '';
   ALTER TABLE hearth_chunks ADD COLUMN IF NOT EXISTS heading text NOT NULL DEFAULT '';
   UPDATE hearth_chunks c SET title = n.title, heading = array_to_string(c.heading_path, ' ')
     FROM hearth_notes n WHERE n.kiln = c.kiln AND n.path = c.path;
   DROP INDEX IF EXISTS hearth_chunks_tsv;
   ALTER TABLE hearth_chunks DROP COLUMN IF EXISTS tsv;
   ALTER TABLE hearth_chunks DROP COLUMN IF EXISTS search_tsv;
   ALTER TABLE hearth_chunks ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
     setweight(to_tsvector('simple', hearth_words(title || ' ' || regexp_replace(path, '^.*/|\\.[^.]*$', '', 'g'))), 'A')
     || setweight(to_tsvector('simple', hearth_words(heading)), 'C')
     || setweight(to_tsvector('simple', hearth_words(text)), (CASE WHEN ordinal = 0 THEN 'B' ELSE 'D' END)::"char")
   ) STORED;
   CREATE INDEX IF NOT EXISTS hearth_chunks_search ON hearth_chunks USING gin (search_tsv);`,
  // 2 → 3: English stems, as the flat store's lexical side (searchTerms): "indexing" finds
  // "indexed". hearth_english is 'simple' with its ASCII words (all Latin words, once hearth_words
  // folded the accents) through the Snowball English stemmer, without a stop-word list (the
  // ranking weighs common words by their rarity; "to be or not to be" stays findable). The
  // generated column is rewritten once in place: no row leaves, nothing is embedded again. The
  // text-search objects have no IF NOT EXISTS: the catalog is asked first, in this schema.
  `DO $stem$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = '${STEM_DICTIONARY}' AND dictnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())) THEN
       CREATE TEXT SEARCH DICTIONARY ${STEM_DICTIONARY} (TEMPLATE = snowball, LANGUAGE = english);
     END IF;
     IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = '${TEXT_CONFIG}' AND cfgnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())) THEN
       CREATE TEXT SEARCH CONFIGURATION ${TEXT_CONFIG} (COPY = simple);
     END IF;
   END $stem$;
   ALTER TEXT SEARCH CONFIGURATION ${TEXT_CONFIG} ALTER MAPPING FOR asciiword, asciihword, hword_asciipart WITH ${STEM_DICTIONARY};
   DROP INDEX IF EXISTS hearth_chunks_search;
   ALTER TABLE hearth_chunks DROP COLUMN IF EXISTS search_tsv;
   ALTER TABLE hearth_chunks ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
     setweight(to_tsvector('${TEXT_CONFIG}', hearth_words(title || ' ' || regexp_replace(path, '^.*/|\\.[^.]*$', '', 'g'))), 'A')
     || setweight(to_tsvector('${TEXT_CONFIG}', hearth_words(heading)), 'C')
     || setweight(to_tsvector('${TEXT_CONFIG}', hearth_words(text)), (CASE WHEN ordinal = 0 THEN 'B' ELSE 'D' END)::"char")
   ) STORED;
   CREATE INDEX IF NOT EXISTS hearth_chunks_search ON hearth_chunks USING gin (search_tsv);`,
  // 3 → 4: which kiln folder (host and real path) writes under each kiln id (postgresKilnClaim.ts),
  // so a folder that takes another's id is noticed before it replaces any row. Nothing existing
  // changes; ids written before have no claimant until their next writer.
  `CREATE TABLE IF NOT EXISTS hearth_kilns (
     kiln text NOT NULL,
     root text NOT NULL,
     claimed_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (kiln, root)
   );`,
];

/** The database was migrated by a newer Hearth: it is refused, never altered. */
export class SchemaTooNewError extends HearthError {
  constructor(found: number, where: string) {
    super(
      'index.schema_too_new',
      `The Hearth tables in ${where} are at schema version ${found}, newer than this Hearth understands (${SCHEMA_VERSION}). ` +
        'Update Hearth on this machine; the database was left as it is.',
    );
  }
}

/** Creates or upgrades the schema (once, whichever client gets the lock first); refuses a newer one. */
export async function migrate(client: PoolClient, where: string): Promise<void> {
  // Fast path without the lock: the usual start finds the schema current.
  const current = await readVersion(client);
  if (current === SCHEMA_VERSION) return;
  if (current !== undefined && current > SCHEMA_VERSION) throw new SchemaTooNewError(current, where);
  await client.query('BEGIN');
  try {
    // A migration rewrites every chunk row, and waits while another client migrates: the session's
    // bounds (postgresConnection's SESSION_TIMEOUTS) are lifted for this transaction and its statements.
    await client.query('SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0');
    await slow(client, 'SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    await client.query('CREATE TABLE IF NOT EXISTS hearth_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)');
    const locked = (await readVersion(client)) ?? 0;
    if (locked > SCHEMA_VERSION) throw new SchemaTooNewError(locked, where);
    for (let version = locked; version < SCHEMA_VERSION; version++) await slow(client, MIGRATIONS[version]);
    await client.query('INSERT INTO hearth_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version', [SCHEMA_VERSION]);
    await client.query('COMMIT');
  } catch (error) {
    await rollback(client, error);
    throw error;
  }
}

/** A migration's statement may run long: the client's own query timeout is an hour for it. */
const MIGRATION_QUERY_TIMEOUT_MS = 3_600_000;

function slow(client: PoolClient, text: string, values?: unknown[]): Promise<unknown> {
  return client.query({ text, values, query_timeout: MIGRATION_QUERY_TIMEOUT_MS } as { text: string; values?: unknown[] });
}

async function readVersion(client: PoolClient): Promise<number | undefined> {
  const exists = await client.query<{ present: boolean }>("SELECT to_regclass('hearth_schema') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) return undefined;
  const row = await client.query<{ version: number }>('SELECT version FROM hearth_schema WHERE id = 1');
  return row.rows[0]?.version;
}

/** How a model's vectors are searched: pgvector's HNSW takes `vector` up to 2,000 dims, `halfvec` up to 4,000. */
export type VectorIndexKind = 'hnsw_vector' | 'hnsw_halfvec' | 'exact';

export function vectorIndexKind(dim: number): VectorIndexKind {
  return dim <= 2000 ? 'hnsw_vector' : dim <= 4000 ? 'hnsw_halfvec' : 'exact';
}

/** The expression the model's index is built on and its queries order by (they must match for the index to serve). */
export function vectorExpression(dim: number, column: string): string {
  const kind = vectorIndexKind(dim);
  return kind === 'hnsw_halfvec' ? `(${column}::halfvec(${dim}))` : `(${column}::vector(${dim}))`;
}

export function distanceOps(dim: number): string {
  return vectorIndexKind(dim) === 'hnsw_halfvec' ? 'halfvec_cosine_ops' : 'vector_cosine_ops';
}

/** Registers the model (provider, model, dimension) and builds its HNSW index once; returns its id. */
export async function ensureModel(client: PoolClient, provider: string, model: string, dim: number): Promise<number> {
  const found = await client.query<{ id: number }>('SELECT id FROM hearth_models WHERE provider = $1 AND model = $2 AND dim = $3', [provider, model, dim]);
  if (found.rows[0]) return found.rows[0].id;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    const inserted = await client.query<{ id: number }>(
      `INSERT INTO hearth_models (provider, model, dim) VALUES ($1, $2, $3)
       ON CONFLICT (provider, model, dim) DO UPDATE SET dim = EXCLUDED.dim RETURNING id`,
      [provider, model, dim],
    );
    const id = inserted.rows[0].id;
    if (vectorIndexKind(dim) !== 'exact') {
      await client.query(
        `CREATE INDEX IF NOT EXISTS hearth_embeddings_hnsw_${id} ON hearth_embeddings USING hnsw (${vectorExpression(dim, 'embedding')} ${distanceOps(dim)}) WHERE model_id = ${id}`,
      );
    }
    await client.query('COMMIT');
    return id;
  } catch (error) {
    await rollback(client, error);
    throw error;
  }
}
