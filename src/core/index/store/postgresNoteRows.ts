import type { PoolClient } from 'pg';
import type { ChunkRecord, NoteMeta } from './vectorStore';

/** A chunk as written: its text hash known, U+0000 already stripped. */
export type WrittenChunk = ChunkRecord & { textHash: string };

/**
 * Takes the note's transaction-scoped advisory lock: two writers of one note (two editors and a
 * CLI) queue here, each replacing the whole note in its own transaction, so the note ends with
 * exactly one writer's chunks. Call inside the note's transaction, before anything else.
 */
export async function lockNote(client: PoolClient, kilnId: string, notePath: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(['hearth-note', kilnId, notePath])]);
}

/**
 * The note's row (upserted) and its chunks (replaced): the non-vector part of writing a note, in
 * the caller's transaction after lockNote. The chunk rows carry the title and joined heading the
 * generated `search_tsv` is built from.
 */
export async function writeNoteRows(client: PoolClient, kilnId: string, notePath: string, hash: string, records: WrittenChunk[], meta?: NoteMeta): Promise<void> {
  const title = records[0]?.title ?? notePath;
  await client.query(
    `INSERT INTO hearth_notes (kiln, path, content_hash, title, frontmatter, tags, links, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::text[], $7::text[], now())
     ON CONFLICT (kiln, path) DO UPDATE SET content_hash = EXCLUDED.content_hash, title = EXCLUDED.title,
       frontmatter = EXCLUDED.frontmatter, tags = EXCLUDED.tags, links = EXCLUDED.links, updated_at = now()`,
    [
      kilnId, notePath, hash, title, JSON.stringify(meta?.frontmatter ?? {}, (_key, value: unknown) => (typeof value === 'string' ? noNul(value) : value)),
      (meta?.tags ?? []).map(noNul), (meta?.links ?? []).map(noNul),
    ],
  );
  await client.query('DELETE FROM hearth_chunks WHERE kiln = $1 AND path = $2', [kilnId, notePath]);
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO hearth_chunks (kiln, path, ordinal, heading_path, start_line, end_line, text, text_hash, title, heading)
     SELECT $1, $2, o, ARRAY(SELECT jsonb_array_elements_text(hp::jsonb)), s, e, tx, th, $9, hd
     FROM unnest($3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $10::text[]) AS t(o, hp, s, e, tx, th, hd)`,
    [
      kilnId,
      notePath,
      records.map((_, i) => i),
      records.map((r) => JSON.stringify(r.headingPath)),
      records.map((r) => r.startLine),
      records.map((r) => r.endLine),
      records.map((r) => r.text),
      records.map((r) => r.textHash),
      title,
      records.map((r) => r.headingPath.join(' ')),
    ],
  );
}

/** PostgreSQL text and jsonb cannot hold U+0000: a note carrying one (a YAML "\0" escape) is stored without it. */
export function noNul(value: string): string {
  return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
}

/** A chunk row as refresh() reads it, joined with its note's title and content hash. */
export interface ChunkRow {
  path: string;
  ordinal: number;
  heading_path: string[];
  start_line: number;
  end_line: number;
  text: string;
  text_hash: string;
  title: string;
  content_hash: string;
}

export function toRecord(row: ChunkRow): ChunkRecord {
  return {
    id: `${row.path}#${row.ordinal}`,
    notePath: row.path,
    title: row.title,
    headingPath: row.heading_path,
    startLine: row.start_line,
    endLine: row.end_line,
    text: row.text,
    contentHash: row.content_hash,
    textHash: row.text_hash,
  };
}
