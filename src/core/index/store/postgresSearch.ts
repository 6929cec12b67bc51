import type { PoolClient } from 'pg';
import { noNul } from './postgresNoteRows';

/**
 * ts_rank weights {D, C, B, A}: body, heading path, a note's opening chunk, title and file name
 * (the weights the generated `search_tsv` carries, migration 2). A title word counts four times a
 * body word; ts_rank keeps each word's best occurrence and adds later ones at 1/j², so a body
 * that repeats a word saturates below one title occurrence.
 */
const NOTE_WEIGHTS = '{0.25,0.4,0.5,1}';
/** A section's own words: the title is every section's, so it ranks none of them. */
const SECTION_WEIGHTS = '{0.25,0.4,0.5,0}';
/** ts_rank divides each word's score by π²/6: one title occurrence of every query word is then 1. */
const RANK_SCALE = Math.PI ** 2 / 6;
/** As the in-process BM25: a pasted page is read up to here, and its first this many distinct words count. */
const MAX_QUERY_CHARS = 4000;
const MAX_QUERY_WORDS = 256;
/** Sections returned per note (a result shows its best and eight others). */
const SECTIONS_PER_NOTE = 10;

export interface LexicalRow {
  path: string;
  ordinal: number;
  /** The note's relevance (its best chunk, title included), 0–1. */
  note: number;
  /** This chunk's own relevance (heading and text), 0–1. */
  section: number;
}

/**
 * The query as a tsquery: its words as hearth_words and the 'simple' parser split the notes, any
 * of them (OR: a half-remembered sentence rarely has every word of its note), each quoted as a
 * lexeme, so no character of the query is ever read as tsquery syntax. Null when it has no word.
 */
const QUERY_SQL = `SELECT string_agg('''' || replace(replace(w, chr(92), chr(92) || chr(92)), '''', '''''') || '''', ' | ') AS q
  FROM (SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple', hearth_words($1)))) AS w LIMIT ${MAX_QUERY_WORDS}) AS words`;

/**
 * The kiln's best `notes` notes for the query by full-text search (the GIN index on `search_tsv`
 * finds the chunks, ts_rank scores them), plus the notes named in `alsoPaths` (hybrid asks for the
 * vector side's notes), each with its best-scoring chunks.
 */
export async function lexicalRows(client: PoolClient, kiln: string, query: string, notes: number, alsoPaths: readonly string[] = []): Promise<LexicalRow[]> {
  const built = await client.query<{ q: string | null }>(QUERY_SQL, [noNul(query.slice(0, MAX_QUERY_CHARS))]);
  const tsquery = built.rows[0]?.q;
  if (!tsquery) return [];
  const rows = await client.query<{ path: string; ordinal: number; note: number; section: number }>(
    `WITH m AS (
       SELECT path, ordinal, ts_rank('${NOTE_WEIGHTS}', search_tsv, $2::tsquery) AS note, ts_rank('${SECTION_WEIGHTS}', search_tsv, $2::tsquery) AS section
       FROM hearth_chunks WHERE kiln = $1 AND search_tsv @@ $2::tsquery
     ),
     best AS (SELECT path, max(note) AS note FROM m GROUP BY path),
     top AS (
       (SELECT path, note FROM best ORDER BY note DESC, path LIMIT $3)
       UNION SELECT path, note FROM best WHERE path = ANY($4::text[])
     ),
     ranked AS (
       SELECT m.path, m.ordinal, top.note, m.section, row_number() OVER (PARTITION BY m.path ORDER BY m.section DESC, m.ordinal) AS n
       FROM m JOIN top ON top.path = m.path
     )
     SELECT path, ordinal, note, section FROM ranked WHERE n <= ${SECTIONS_PER_NOTE} ORDER BY note DESC, path, section DESC`,
    [kiln, tsquery, notes, [...alsoPaths]],
  );
  return rows.rows.map((row) => ({ path: row.path, ordinal: row.ordinal, note: scaled(row.note), section: scaled(row.section) }));
}

function scaled(rank: number): number {
  return Math.min(1, Number(rank) * RANK_SCALE);
}

export interface PropertyRow {
  path: string;
  title: string;
  /** The note's properties as a property search sees them: its frontmatter, with `tags` as parsed. */
  fields: Record<string, unknown>;
  /** The line before the note's first chunk (its frontmatter ends there), at least 1. */
  endLine: number;
}

/**
 * Notes of the kiln whose properties hold every wanted `key=value`, in path order, at most
 * `limit`: matchesProperty's rule in SQL over the frontmatter `jsonb` and the tags column —
 * scalars compare as text, case-insensitively (dates as YYYY-MM-DD, a leading `#` on the wanted
 * value ignored), a list matches when an item does.
 */
export async function propertyRows(client: PoolClient, kiln: string, wanted: readonly (readonly [string, string])[], limit: number): Promise<PropertyRow[]> {
  const params: unknown[] = [kiln, limit];
  const conditions = wanted.map(([key, value]) => {
    params.push(noNul(key), noNul(value.toLowerCase()));
    const [k, v] = [`$${params.length - 1}`, `$${params.length}`];
    return `EXISTS (
      SELECT 1 FROM jsonb_array_elements(CASE
          WHEN ${k} = 'tags' THEN to_jsonb(n.tags)
          WHEN jsonb_typeof(n.frontmatter -> ${k}::text) = 'array' THEN n.frontmatter -> ${k}::text
          ELSE jsonb_build_array(n.frontmatter -> ${k}::text) END) AS e(v)
      WHERE jsonb_typeof(e.v) <> 'null' AND lower(CASE
          WHEN jsonb_typeof(e.v) <> 'string' THEN e.v::text
          WHEN e.v #>> '{}' ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' THEN left(e.v #>> '{}', 10)
          ELSE e.v #>> '{}' END) IN (${v}::text, regexp_replace(${v}::text, '^#', '')))`;
  });
  const rows = await client.query<{ path: string; title: string; frontmatter: Record<string, unknown>; tags: string[]; first_line: number | null }>(
    `SELECT n.path, n.title, n.frontmatter, n.tags,
       (SELECT min(c.start_line) FROM hearth_chunks c WHERE c.kiln = n.kiln AND c.path = n.path) AS first_line
     FROM hearth_notes n WHERE n.kiln = $1 AND ${conditions.join(' AND ')}
     ORDER BY n.path LIMIT $2`,
    params,
  );
  return rows.rows.map((row) => ({
    path: row.path, title: row.title, fields: { ...row.frontmatter, tags: row.tags }, endLine: Math.max(1, (row.first_line ?? 2) - 1),
  }));
}

