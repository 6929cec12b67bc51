/**
 * The link graph in the team database (`store = "postgres"`): each member publishes the links of
 * the notes it holds, resolved by its own graph, under the kiln id; anyone asks for the backlinks of
 * a note and sees every member's. One table of its own (`hearth_links`), created under its own
 * advisory lock, so the store's schema and migrations stay as they are.
 */
import type pg from 'pg';
import type { Backlink, GraphLink } from '../../kiln/links/linkGraph';
import type { TeamLinkStore } from '../../kiln/links/teamLinks';
import { createPool, describeDatabase, inTransaction, withClient } from './postgresConnection';

/** Serialises creating the table (CREATE TABLE IF NOT EXISTS races with itself in PostgreSQL). */
const LINKS_LOCK = 0x4865617274680002n;
/** Rows written per statement: a note with 10,000 links stays a few statements. */
const ROWS_PER_INSERT = 2000;

const CREATE = `CREATE TABLE IF NOT EXISTS hearth_links (
  kiln text NOT NULL,
  source text NOT NULL,
  ordinal integer NOT NULL,
  kind text NOT NULL,
  target text NOT NULL,
  fragment text,
  line integer NOT NULL,
  context text NOT NULL,
  resolved text,
  PRIMARY KEY (kiln, source, ordinal)
);
CREATE INDEX IF NOT EXISTS hearth_links_resolved ON hearth_links (kiln, resolved);`;

interface LinkRow {
  source: string;
  kind: 'wiki' | 'markdown';
  target: string;
  fragment: string | null;
  line: number;
  context: string;
}

export class PostgresLinks implements TeamLinkStore {
  private readonly where: string;
  private readonly pool: pg.Pool;
  private ready: Promise<void> | undefined;

  constructor(
    url: string,
    private readonly kilnId: string,
    log?: (message: string) => void,
  ) {
    this.where = describeDatabase(url);
    this.pool = createPool(url, (error) => log?.(`links: a pooled connection to ${this.where} failed while idle (${error.message})`));
  }

  /** Replaces the published links of each note with its links now (as this member's graph resolved them), in one transaction. */
  async publish(notes: readonly { path: string; links: readonly GraphLink[] }[]): Promise<void> {
    await this.table();
    const rows = notes.flatMap((note) => note.links.filter((link) => !link.ignored).map((link, ordinal) => ({ source: note.path, ordinal, link })));
    await inTransaction(this.pool, this.where, async (client) => {
      await client.query('DELETE FROM hearth_links WHERE kiln = $1 AND source = ANY($2::text[])', [this.kilnId, notes.map((note) => note.path)]);
      for (let from = 0; from < rows.length; from += ROWS_PER_INSERT) {
        const part = rows.slice(from, from + ROWS_PER_INSERT);
        await client.query(
          `INSERT INTO hearth_links (kiln, source, ordinal, kind, target, fragment, line, context, resolved)
           SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[])`,
          [
            this.kilnId,
            part.map((r) => r.source), part.map((r) => r.ordinal), part.map((r) => r.link.kind), part.map((r) => r.link.target), part.map((r) => r.link.fragment ?? null),
            part.map((r) => r.link.line), part.map((r) => r.link.context), part.map((r) => r.link.path ?? null),
          ],
        );
      }
    });
  }

  /** Forgets a note's links (it was deleted or moved away). */
  async remove(source: string): Promise<void> {
    await this.table();
    await withClient(this.pool, this.where, (client) => client.query('DELETE FROM hearth_links WHERE kiln = $1 AND source = $2', [this.kilnId, source]));
  }

  /** Every member's links into `path`, in source order then line. */
  async backlinks(path: string, limit = 5000): Promise<Backlink[]> {
    await this.table();
    const result = await withClient(this.pool, this.where, (client) =>
      client.query<LinkRow>(
        'SELECT source, kind, target, fragment, line, context FROM hearth_links WHERE kiln = $1 AND resolved = $2 ORDER BY source, line, ordinal LIMIT $3',
        [this.kilnId, path, limit],
      ),
    );
    return result.rows.map((row) => ({
      source: row.source, kind: row.kind, target: row.target, fragment: row.fragment ?? undefined, line: row.line, context: row.context,
      column: 0, length: 0, targetColumn: 0, alias: undefined, embed: undefined, path, ambiguous: undefined, outside: undefined, ignored: undefined,
    }));
  }

  async dispose(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  private table(): Promise<void> {
    this.ready ??= inTransaction(this.pool, this.where, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [LINKS_LOCK.toString()]);
      await client.query(CREATE);
    }).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }
}
