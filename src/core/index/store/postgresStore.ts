import type pg from 'pg';
import { fromSql, toSql } from 'pgvector';
import { chunkTextHash } from '../chunkText';
import { normalized } from './quantize';
import { createPool, describeDatabase, inTransaction, withClient } from './postgresConnection';
import { ensureModel, migrate, vectorExpression, vectorIndexKind, type VectorIndexKind } from './postgresSchema';
import { lexicalRows, propertyRows } from './postgresSearch';
import { ClaimOnce, claimKiln, type ConfirmKilnClaim } from './postgresKilnClaim';
import { skippedModelWarning } from './postgresModels';
import { lockNote, noNul, toRecord, writeNoteRows, type ChunkRow } from './postgresNoteRows';
import {
  StoreUsageError, type ChunkRecord, type LexicalNote, type NoteMeta, type PropertyNote, type SearchHit, type SearchOptions, type StoreHeader, type VectorStore,
} from './vectorStore';

export interface PostgresStoreOptions {
  /** Resolved connection URL (secret: never shown; `where` names the database in messages). */
  url: string;
  /** This kiln's namespace in the database (`[processing].kiln_id`). */
  kilnId: string;
  /** `host:real path` of the kiln: who claims kilnId before the first write (postgresKilnClaim.ts). */
  root?: string;
  /** Asks before this kiln takes over an id another root claimed; without it, a warning only. */
  confirmClaim?: ConfirmKilnClaim;
  /** Local folder for the per-machine files beside the index (stat cache, lexical file). */
  dir: string;
  /** HNSW candidate list per query (pgvector's default is 40; recall@10 ≥ 0.95 wants more). */
  efSearch?: number;
  log?: (message: string) => void;
}

const DEFAULT_EF_SEARCH = 100;

/**
 * The index in a shared PostgreSQL + pgvector database. Each note is written in its own
 * transaction under a transaction-scoped advisory lock on (kiln, note), so concurrent writers of
 * one note end with exactly one writer's chunks and readers never see half a note. Vectors are
 * shared by text hash and model across every kiln and member: `knownVectors` lets the indexer skip
 * whatever anyone embedded before. The kiln's chunk list is mirrored in memory for the lexical
 * side above the store (`chunks()`), reloaded by `refresh()` before every run.
 */
export class PostgresStore implements VectorStore {
  readonly kind = 'postgres' as const;
  readonly dir: string;
  readonly where: string;
  private readonly pool: pg.Pool;
  private modelId = 0;
  private notes = new Map<string, { hash: string; chunks: ChunkRecord[] }>();
  private live = 0;
  private readonly claim = new ClaimOnce();
  private fitting?: Promise<void>;
  /** text hash → this kiln's chunks with it, for mapping search rows; dropped on every change. */
  private byHash?: Map<string, ChunkRecord[]>;

  constructor(
    private readonly options: PostgresStoreOptions,
    readonly header: StoreHeader,
  ) {
    this.dir = options.dir;
    this.where = describeDatabase(options.url);
    this.pool = createPool(options.url, (error) => options.log?.(`index: a pooled connection to ${this.where} failed while idle (${error.message}); it reconnects on the next query`));
  }

  /** How this model's vectors are searched (`hearth index --json` shows it). */
  get vectorIndex(): VectorIndexKind {
    return vectorIndexKind(this.header.dim);
  }

  get count(): number {
    return this.live;
  }

  async open(): Promise<void> {
    await this.withClient(async (client) => {
      await migrate(client, this.where);
      this.modelId = await ensureModel(client, this.header.providerType, this.header.model, this.header.dim);
    });
    await this.refresh();
  }

  async refresh(): Promise<void> {
    await this.withClient(async (client) => {
      // A note counts as indexed for this model only when every chunk has this model's vector:
      // after a switch of model its notes are embedded again (or found in the shared table).
      const notes = await client.query<{ path: string; content_hash: string; complete: boolean }>(
        `SELECT n.path, n.content_hash, NOT EXISTS (
           SELECT 1 FROM hearth_chunks c WHERE c.kiln = n.kiln AND c.path = n.path
             AND NOT EXISTS (SELECT 1 FROM hearth_embeddings e WHERE e.model_id = $2 AND e.text_hash = c.text_hash)
         ) AS complete
         FROM hearth_notes n WHERE n.kiln = $1`,
        [this.options.kilnId, this.modelId],
      );
      const chunks = await client.query<ChunkRow>(
        `SELECT c.path, c.ordinal, c.heading_path, c.start_line, c.end_line, c.text, c.text_hash, n.title, n.content_hash
         FROM hearth_chunks c JOIN hearth_notes n ON n.kiln = c.kiln AND n.path = c.path
         WHERE c.kiln = $1 ORDER BY c.path, c.ordinal`,
        [this.options.kilnId],
      );
      const next = new Map<string, { hash: string; chunks: ChunkRecord[] }>();
      // An incomplete note is known under an empty hash: the next run re-embeds what is missing.
      for (const row of notes.rows) next.set(row.path, { hash: row.complete ? row.content_hash : '', chunks: [] });
      for (const row of chunks.rows) next.get(row.path)?.chunks.push(toRecord(row));
      this.notes = next;
      this.live = chunks.rows.length;
      this.byHash = undefined;
    });
  }

  async upsertNote(notePath: string, chunks: ChunkRecord[], vectors: Float32Array[], contentHash?: string, meta?: NoteMeta): Promise<void> {
    if (chunks.length !== vectors.length) throw new StoreUsageError(`${chunks.length} chunks but ${vectors.length} vectors.`);
    if (vectors.length > 0) await this.fitDimension(vectors[0].length);
    for (const v of vectors) if (v.length !== this.header.dim) throw new StoreUsageError(`A vector has ${v.length} dims; the index has ${this.header.dim}.`);
    await this.claimed();
    const hash = contentHash ?? chunks[0]?.contentHash ?? '';
    const records = chunks.map((chunk) => ({
      ...chunk, notePath, contentHash: hash, textHash: chunk.textHash ?? chunkTextHash(chunk),
      text: noNul(chunk.text), title: noNul(chunk.title), headingPath: chunk.headingPath.map(noNul),
    }));
    await this.transaction(async (client) => {
      await lockNote(client, this.options.kilnId, notePath);
      if (records.length > 0) {
        await client.query(
          `INSERT INTO hearth_embeddings (model_id, text_hash, embedding)
           SELECT $1, h, v::vector FROM unnest($2::text[], $3::text[]) AS t(h, v)
           ON CONFLICT (model_id, text_hash) DO NOTHING`,
          [this.modelId, records.map((r) => r.textHash), vectors.map((v) => toSql(Array.from(normalized(v))))],
        );
      }
      await writeNoteRows(client, this.options.kilnId, notePath, hash, records, meta);
    });
    const previous = this.notes.get(notePath);
    this.live += records.length - (previous?.chunks.length ?? 0);
    this.notes.set(notePath, { hash, chunks: records.map((r, i) => ({ ...r, id: `${notePath}#${i}` })) });
    this.byHash = undefined;
  }

  async removeNote(notePath: string): Promise<void> {
    await this.claimed();
    await this.withClient((client) => client.query('DELETE FROM hearth_notes WHERE kiln = $1 AND path = $2', [this.options.kilnId, notePath]));
    const previous = this.notes.get(notePath);
    if (!previous) return;
    this.live -= previous.chunks.length;
    this.notes.delete(notePath);
    this.byHash = undefined;
  }

  /**
   * The database's only row of this model had another dimension than this member's endpoint
   * answers (it serves a different model under the same name): that row is skipped with a
   * warning naming it, and this member's vectors go under a row of their own dimension.
   */
  private fitDimension(dim: number): Promise<void> {
    // Writers of other notes meanwhile wait for the switch (and do not warn again).
    if (this.fitting) return this.fitting.then(() => this.fitDimension(dim));
    if (dim === this.header.dim) return Promise.resolve();
    const { providerType, model } = this.header;
    this.options.log?.(skippedModelWarning({ id: this.modelId, dim: this.header.dim }, providerType, model, dim));
    this.fitting = (async () => {
      this.modelId = await this.withClient((client) => ensureModel(client, providerType, model, dim));
      this.header.dim = dim;
      await this.refresh();
    })().finally(() => (this.fitting = undefined));
    return this.fitting;
  }

  /** Before any row of the kiln is replaced: this root's claim on the kiln id (asked once). */
  private claimed(): Promise<void> {
    const { kilnId, root, confirmClaim, log } = this.options;
    if (!root) return Promise.resolve();
    return this.claim.settle(() => this.withClient((client) => claimKiln(client, kilnId, root, { warn: (message) => log?.(`index: ${message}`), confirm: confirmClaim })));
  }

  noteHashes(): Map<string, string> {
    return new Map([...this.notes].map(([path, note]) => [path, note.hash]));
  }

  async knownVectors(textHashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const known = new Map<string, Float32Array>();
    if (textHashes.length === 0) return known;
    const rows = await this.withClient((client) =>
      client.query<{ text_hash: string; embedding: string }>('SELECT text_hash, embedding::text AS embedding FROM hearth_embeddings WHERE model_id = $1 AND text_hash = ANY($2::text[])', [this.modelId, [...textHashes]]),
    );
    for (const row of rows.rows) known.set(row.text_hash, Float32Array.from(fromSql(row.embedding) as number[]));
    return known;
  }

  /**
   * Nearest chunks of this kiln by cosine distance, in the database: the model's HNSW index (its
   * `ef_search` set for this query only) with pgvector's iterative scan, so the kiln filter cannot
   * starve the result; exact beyond 4,000 dimensions.
   */
  async search(query: Float32Array, k: number, options: SearchOptions = {}): Promise<SearchHit[]> {
    await this.fitDimension(query.length);
    const limit = options.filter ? Math.max(k * 4, 100) : k;
    const expr = vectorExpression(this.header.dim, 'e.embedding');
    const cast = this.vectorIndex === 'hnsw_halfvec' ? `halfvec(${this.header.dim})` : `vector(${this.header.dim})`;
    const rows = await this.transaction(async (client) => {
      if (this.vectorIndex !== 'exact') {
        await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(this.options.efSearch ?? DEFAULT_EF_SEARCH, limit)}`);
        await client.query("SET LOCAL hnsw.iterative_scan = 'relaxed_order'");
      }
      return client.query<{ text_hash: string; distance: number }>(
        // The model id is inlined (an integer of ours) so the planner matches the model's partial HNSW index.
        `SELECT e.text_hash, ${expr} <=> $2::${cast} AS distance
         FROM hearth_embeddings e
         WHERE e.model_id = ${Number(this.modelId)} AND EXISTS (SELECT 1 FROM hearth_chunks c WHERE c.kiln = $1 AND c.text_hash = e.text_hash)
         ORDER BY ${expr} <=> $2::${cast}
         LIMIT $3`,
        [this.options.kilnId, toSql(Array.from(normalized(query))), limit],
      );
    });
    const byHash = this.chunksByTextHash();
    const hits: SearchHit[] = [];
    for (const row of rows.rows) {
      for (const chunk of byHash.get(row.text_hash) ?? []) {
        if (options.filter && !options.filter(chunk)) continue;
        hits.push({ chunk, notePath: chunk.notePath, score: 1 - Number(row.distance) });
      }
    }
    // The relaxed iterative scan may return neighbours slightly out of order.
    return hits.sort((a, b) => b.score - a.score).slice(0, k);
  }

  /**
   * Full-text search in the database (the weighted `search_tsv`, its GIN index, ts_rank), grouped
   * into notes there. Chunks another writer changed since the last refresh are left out.
   */
  async lexicalSearch(query: string, notes: number, alsoPaths: readonly string[] = [], folder = ''): Promise<LexicalNote[]> {
    const rows = await this.withClient((client) => lexicalRows(client, this.options.kilnId, query, notes, this.live, alsoPaths, folder));
    const found = new Map<string, LexicalNote>();
    for (const row of rows) {
      const chunk = this.notes.get(row.path)?.chunks[row.ordinal];
      if (!chunk) continue;
      let note = found.get(row.path);
      if (!note) found.set(row.path, (note = { path: row.path, relevance: row.note, sections: [] }));
      note.sections.push({ chunk, relevance: row.section });
    }
    return [...found.values()];
  }

  /** Property search over the frontmatter `jsonb` and tags, in the database. */
  propertySearch(wanted: readonly (readonly [string, string])[], limit: number): Promise<PropertyNote[]> {
    return this.withClient((client) => propertyRows(client, this.options.kilnId, wanted, limit));
  }

  noteChunks(notePath: string): ChunkRecord[] {
    return [...(this.notes.get(notePath)?.chunks ?? [])];
  }

  *chunks(): Iterable<ChunkRecord> {
    for (const note of this.notes.values()) yield* note.chunks;
  }

  /** Every write was committed in its own transaction already. */
  async commit(): Promise<void> {}

  /** Drops this kiln's notes and chunks; the shared vectors stay (another kiln or member may use them). */
  async clear(): Promise<void> {
    await this.claimed();
    await this.withClient((client) => client.query('DELETE FROM hearth_notes WHERE kiln = $1', [this.options.kilnId]));
    this.notes.clear();
    this.live = 0;
    this.byHash = undefined;
  }

  async dispose(): Promise<void> {
    await this.pool.end().catch(() => {});
  }

  private chunksByTextHash(): Map<string, ChunkRecord[]> {
    if (this.byHash) return this.byHash;
    const map = new Map<string, ChunkRecord[]>();
    for (const chunk of this.chunks()) {
      const key = chunk.textHash ?? '';
      const list = map.get(key);
      if (list) list.push(chunk);
      else map.set(key, [chunk]);
    }
    this.byHash = map;
    return map;
  }

  private withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withClient(this.pool, this.where, work);
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, this.where, work);
  }
}
