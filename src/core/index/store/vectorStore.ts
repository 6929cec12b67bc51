import { HearthError } from '../../errors';

/** One chunk of a note as the index keeps it; the vector lives beside it, in the store's own format. */
export interface ChunkRecord {
  /** Unique in the store; the indexer's choice (e.g. `${notePath}#${ordinal}`). */
  id: string;
  /** Kiln-relative path with forward slashes. */
  notePath: string;
  title: string;
  headingPath: string[];
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The chunk's text (or a snippet of it) shown in results and used for BM25. */
  text: string;
  /** Hash of the whole note's content when it was indexed: the same on every chunk of a note. */
  contentHash: string;
  /** Hash of the text the embedder saw (chunkTextHash): equal hashes share one vector per model. */
  textHash?: string;
}

/** What a store may keep of a note besides its chunks (the postgres store: property search in the database). */
export interface NoteMeta {
  frontmatter: Record<string, unknown>;
  tags: string[];
  links: string[];
}

/** What the index was built with; a different header means the vectors are incomparable (rebuild). */
export interface StoreHeader {
  /** Canonical embedding provider type, e.g. 'local_cpu'. */
  providerType: string;
  model: string;
  dim: number;
}

export interface SearchHit {
  /** The chunk's note, known without the chunk (a flat store reads a note's chunks only when one is asked for). */
  readonly notePath: string;
  /** The chunk: read when first asked for, and only then, in the flat store. */
  readonly chunk: ChunkRecord;
  /** Cosine similarity (vectors are normalized on upsert), higher is better. */
  score: number;
}

export interface SearchOptions {
  /** Only chunks whose note passes are considered. */
  filter?: (chunk: ChunkRecord) => boolean;
}

/** One note found by a store's own full-text search: relevances in 0–1, sections best first. */
export interface LexicalNote {
  path: string;
  relevance: number;
  sections: { chunk: ChunkRecord; relevance: number }[];
}

/** One note found by a store's own property search (the fields a property search sees). */
export interface PropertyNote {
  path: string;
  title: string;
  /** The note's properties as a property search sees them: its frontmatter, with `tags` as parsed. */
  fields: Record<string, unknown>;
  /** The note's frontmatter as written (`fields` has the note's parsed tags instead of the written ones). */
  frontmatter: Record<string, unknown>;
  /** The line before the note's first chunk (its frontmatter ends there), at least 1. */
  endLine: number;
}

export type StoreKind = 'flat' | 'vectra' | 'postgres';

/**
 * A file-backed vector index of note chunks. Writes are staged in memory and made durable by
 * `commit()` (atomically: a crash before or during commit leaves the previous committed state), so
 * the indexer upserts a batch of notes and commits once.
 */
export interface VectorStore {
  readonly kind: StoreKind;
  readonly dir: string;
  readonly header: StoreHeader;
  /**
   * Opens or creates the index. Throws StoreHeaderMismatchError when the index on disk was built
   * with another provider/model/dim, and StoreCorruptError when its files fail their checks; the
   * indexer answers both by `clear()` and a full rebuild.
   */
  open(): Promise<void>;
  /**
   * Replaces every chunk of the note (vectors[i] belongs to chunks[i]; length == header.dim).
   * `contentHash` defaults to chunks[0].contentHash; pass it for a note with no chunks (empty), so
   * that it is still known as indexed.
   */
  upsertNote(notePath: string, chunks: ChunkRecord[], vectors: Float32Array[], contentHash?: string, meta?: NoteMeta): Promise<void>;
  /**
   * Vectors this store already holds for these text hashes with its model (a shared store: any
   * member's); the indexer embeds only the rest. Stores without sharing leave it out.
   */
  knownVectors?(textHashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Reloads what other writers changed since open (a shared store); called before each run. */
  refresh?(): Promise<void>;
  removeNote(notePath: string): Promise<void>;
  /** notePath → contentHash of what is indexed (staged writes included), for incremental runs. */
  noteHashes(): Map<string, string>;
  /** Top-k by cosine similarity, exact float32 ranking, best first (staged writes: flat sees them, vectra after commit). */
  search(query: Float32Array, k: number, options?: SearchOptions): Promise<SearchHit[]>;
  /**
   * The store ranks words itself (the team database: full-text search over a weighted tsvector):
   * the best `notes` notes for the query plus those in `alsoPaths`, each with its matching chunks.
   * KilnIndex then builds no BM25 of its own; stores without it get the in-process one. `folder`
   * (kiln-relative): only the notes under it.
   */
  lexicalSearch?(query: string, notes: number, alsoPaths?: readonly string[], folder?: string): Promise<LexicalNote[]>;
  /** The store answers property search itself (`key=value` pairs, all wanted), in path order. */
  propertySearch?(wanted: readonly (readonly [string, string])[], limit: number): Promise<PropertyNote[]>;
  /** Every chunk (for BM25 / text search); order unspecified. */
  chunks(): Iterable<ChunkRecord>;
  /** One note's chunks (search shows a note's sections); stores without it are scanned with chunks(). */
  noteChunks?(notePath: string): ChunkRecord[];
  /** Number of live chunks. */
  readonly count: number;
  /**
   * Names the committed state this store holds (changes with every commit, compaction or clear),
   * or undefined while writes are staged: a file written beside the store for one state (the
   * lexical file) is trusted as it is when its stamp is the store's. Stores without it are compared note by note.
   */
  commitStamp?(): string | undefined;
  /** Makes staged writes durable, atomically. */
  commit(): Promise<void>;
  /** Drops everything, on disk too (the store stays open and empty, with its header). */
  clear(): Promise<void>;
  /** Releases the store (files, the database pool); commits nothing: call commit() first to keep staged writes. */
  dispose(): Promise<void>;
}

export class StoreCorruptError extends HearthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('index.corrupt', message, options);
  }
}

export class StoreHeaderMismatchError extends HearthError {
  constructor(
    readonly onDisk: StoreHeader,
    readonly wanted: StoreHeader,
  ) {
    super(
      'index.header_mismatch',
      `The index was built with ${onDisk.providerType}/${onDisk.model} (${onDisk.dim} dims), not ` +
        `${wanted.providerType}/${wanted.model} (${wanted.dim} dims); it must be rebuilt.`,
    );
  }
}

/** Another process committed to the same index since this one opened it: reopen and redo the batch. */
export class StoreConflictError extends HearthError {
  constructor(dir: string) {
    super('index.changed_on_disk', `The index in ${dir} was changed by another process; reopen it and try again.`);
  }
}

/** The index's folder cannot be made (a file in its place, no permission, a read-only drive): nothing in it is touched. */
export class StoreFolderError extends HearthError {
  constructor(dir: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in its place' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'it may not be written here' : 'it cannot be created';
    super('index.folder_unusable', `The index folder ${dir} cannot be used: ${why}${code ? ` (${code})` : ''}. Move that file away or fix the folder's permissions, then index again.`, { cause });
  }
}

export class StoreUsageError extends HearthError {
  constructor(message: string) {
    super('index.usage', message);
  }
}
