import type { PoolClient } from 'pg';
import { noNul } from './postgresNoteRows';
import { TEXT_CONFIG } from './postgresSchema';
import type { PropertyNote } from './vectorStore';

/**
 * ts_rank weights {D, C, B, A}: body, heading path, a note's opening chunk, title and file name
 * (the weights the generated `search_tsv` carries, migrations 2 and 3). Tuned on the dev set
 * (test/eval, top-1 0.923 → 0.927, recall@10 0.981 → 0.990 against {0.25, 0.4, 0.5, 1}) under one
 * rule: a title word beats any repetition elsewhere. ts_rank keeps a word's best occurrence and
 * adds later ones at 1/j², so a word repeated throughout a field reaches π²/6 ≈ 1.64 times its
 * weight: every other field stays below 1 / 1.64.
 */
const NOTE_WEIGHTS = '{0.4,0.6,0.6,1}';
/** A section's own words: the title is every section's, so it ranks none of them. */
const SECTION_WEIGHTS = '{0.4,0.6,0.6,0}';
/** ts_rank divides a word's score by π²/6: one title occurrence of a word is then 1. */
const RANK_SCALE = Math.PI ** 2 / 6;
/** A pasted page is read up to here, and its first this many distinct words count (each costs a count and a rank per match). */
const MAX_QUERY_CHARS = 4000;
const MAX_QUERY_WORDS = 32;
/** Sections returned per note (a result shows its best and eight others). */
const SECTIONS_PER_NOTE = 10;
/**
 * A word in more chunks than this (a twentieth of the kiln, at least 500) is common: its count
 * stops there, and it ranks the notes the rarer words find without finding any itself (an OR over
 * "the" would rank the whole kiln).
 */
function commonAt(chunkCount: number): number {
  return Math.max(500, Math.ceil(chunkCount / 20));
}

export interface LexicalRow {
  path: string;
  ordinal: number;
  /** The note's relevance (its words' best field, weighted by rarity), 0–1. */
  note: number;
  /** This chunk's own relevance (heading and text), 0–1. */
  section: number;
}

/**
 * The query's words as hearth_words and the chunks' configuration split and stem the notes, each quoted as a
 * tsquery lexeme (so no character of the query is ever read as tsquery syntax), with the number of
 * the kiln's chunks holding it, counted up to $3 through the GIN index.
 */
const WORDS_SQL = `SELECT q, (SELECT count(*)::int FROM (SELECT 1 FROM hearth_chunks WHERE kiln = $2 AND search_tsv @@ q::tsquery LIMIT $3) AS x) AS n
  FROM (SELECT '''' || replace(replace(w, chr(92), chr(92) || chr(92)), '''', '''''') || '''' AS q
        FROM unnest(tsvector_to_array(to_tsvector('${TEXT_CONFIG}', hearth_words($1)))) AS w LIMIT ${MAX_QUERY_WORDS}) AS words`;

/**
 * The kiln's best `notes` notes for the query by full-text search, plus the notes named in
 * `alsoPaths` (hybrid asks for the vector side's notes), each with its best chunks. The GIN index
 * finds the chunks holding any of the query's uncommon words (OR: a half-remembered sentence
 * rarely has every word of its note; all words when every one is common); each word weighs its
 * rarity (BM25's idf) and counts once per note, at its best field (ts_rank per word): a note's
 * relevance is the share of the query, by rarity, that it holds where it counts most.
 */
export async function lexicalRows(
  client: PoolClient, kiln: string, query: string, notes: number, chunkCount: number, alsoPaths: readonly string[] = [], folder = '',
): Promise<LexicalRow[]> {
  // A folder's notes are the paths under "folder/" (a prefix, never a LIKE pattern: % and _ are plain).
  const under = folder.replace(/^\/+|\/+$/g, '');
  const common = commonAt(chunkCount);
  const counted = await client.query<{ q: string; n: number }>(WORDS_SQL, [noNul(query.slice(0, MAX_QUERY_CHARS)), kiln, common]);
  const words = counted.rows.filter((w) => w.n > 0);
  if (words.length === 0) return [];
  const total = Math.max(chunkCount, ...words.map((w) => w.n));
  const idf = (n: number) => Math.log(1 + (total - n + 0.5) / (n + 0.5));
  // Words no note holds still count in the whole (a note holding half the query is half relevant).
  const norm = counted.rows.reduce((sum, w) => sum + idf(w.n), 0);
  const rare = words.filter((w) => w.n < common);
  const match = rare.length > 0 ? rare.map((w) => w.q).join(' | ') : words.map((w) => w.q).join(' & ');
  const rows = await client.query<{ path: string; ordinal: number; note: number; section: number }>(
    `WITH words AS (SELECT w::tsquery AS q, idf, i FROM unnest($3::text[], $4::float8[]) WITH ORDINALITY AS t(w, idf, i)),
     per_word AS MATERIALIZED (
       SELECT c.path, c.ordinal, words.i, words.idf, ts_rank('${NOTE_WEIGHTS}', c.search_tsv, words.q) AS r, ts_rank('${SECTION_WEIGHTS}', c.search_tsv, words.q) AS s
       FROM hearth_chunks c JOIN words ON c.search_tsv @@ words.q
       WHERE c.kiln = $1 AND c.search_tsv @@ $2::tsquery AND ($8::text = '' OR starts_with(c.path, $8::text || '/'))
     ),
     best AS (SELECT path, sum(idf * r) / $5 AS note FROM (SELECT path, i, idf, max(r) AS r FROM per_word GROUP BY path, i, idf) AS x GROUP BY path),
     top AS (
       (SELECT path, note FROM best ORDER BY note DESC, path LIMIT $6)
       UNION SELECT path, note FROM best WHERE path = ANY($7::text[])
     ),
     sections AS (
       SELECT p.path, p.ordinal, top.note, sum(p.idf * p.s) / $5 AS section
       FROM per_word p JOIN top ON top.path = p.path GROUP BY p.path, p.ordinal, top.note
     ),
     ranked AS (SELECT *, row_number() OVER (PARTITION BY path ORDER BY section DESC, ordinal) AS n FROM sections)
     SELECT path, ordinal, note, section FROM ranked WHERE n <= ${SECTIONS_PER_NOTE} ORDER BY note DESC, path, section DESC`,
    [kiln, match, words.map((w) => w.q), words.map((w) => idf(w.n)), norm, notes, [...alsoPaths], noNul(under)],
  );
  return rows.rows.map((row) => ({ path: row.path, ordinal: row.ordinal, note: scaled(row.note), section: scaled(row.section) }));
}

function scaled(rank: number): number {
  return Math.min(1, Number(rank) * RANK_SCALE);
}

/**
 * Notes of the kiln whose properties hold every wanted `key=value`, in path order, at most
 * `limit`: matchesProperty's rule in SQL over the frontmatter `jsonb` and the tags column —
 * scalars compare as text, case-insensitively (dates as YYYY-MM-DD, a leading `#` on the wanted
 * value ignored), a list matches when an item does.
 */
export async function propertyRows(client: PoolClient, kiln: string, wanted: readonly (readonly [string, string])[], limit: number): Promise<PropertyNote[]> {
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
    path: row.path, title: row.title, fields: { ...row.frontmatter, tags: row.tags }, frontmatter: row.frontmatter, endLine: Math.max(1, (row.first_line ?? 2) - 1),
  }));
}

