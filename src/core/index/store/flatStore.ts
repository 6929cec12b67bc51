import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { Float32Slots } from './float32Slots';
import { Int8Slots } from './int8Slots';
import { withLock } from '../../fs/crossProcessLock';
import { appendSynced, generationFiles, sameCommit, WRITER_LOCK, readChecked, readManifest, removeOtherGenerations, verifyStreaming, writeGeneration, writeManifest, FORMAT, VERSION, type FileState, type Manifest } from './flatFiles';
import { trimLeftovers } from './flatLeftovers';
import { ChunkLogRows } from './chunkLogRows';
import { encodeNote, readChunkLogFile, type NoteLine } from './flatMeta';
import { FlatNotes } from './flatNotes';
import { liveGeneration } from './flatCompaction';
import { exactTopK } from './flatSearch';
import { normalized, quantizeInto } from './quantize';
import { StoreConflictError, StoreFolderError, StoreCorruptError, StoreHeaderMismatchError, StoreUsageError, type ChunkRecord, type SearchHit, type SearchOptions, type StoreHeader, type VectorStore } from './vectorStore';

export interface FlatStoreOptions {
  /** Compact when dead slots exceed this share of all slots (and at least `compactMinDead`). */
  compactRatio?: number;
  compactMinDead?: number;
  /**
   * Check the whole float32 file's checksum on open (reads it all: ~170 ms at 100k x 384). Off by
   * default: each float32 vector carries its own CRC, checked whenever it is read for re-ranking.
   */
  verifyOnOpen?: boolean;
  /** Told when a stale writer lock is broken (another machine's, a dead or younger process's). */
  notice?: (line: string) => void;
}

/** A compaction of a large index rewrites every vector; a commit waits that long at most. */
const LOCK_WAIT_MS = 120_000;
/** Compactions finishing one after another while this process reads: give up after this many. */
const OPEN_ATTEMPTS = 5;

/**
 * Vectors in contiguous files: int8 slots (scanned by the SIMD kernel straight out of wasm memory)
 * and float32 slots (read back only for the top candidates, so they cost no resident memory).
 * Results are the exact float32 ranking: candidates are re-scored exactly, and any other slot whose
 * int8 score plus its quantization error bound could still reach the k-th exact score is too.
 */
export class FlatStore implements VectorStore {
  readonly kind = 'flat' as const;
  private manifest!: Manifest;
  private readonly q8 = new Int8Slots();
  private slots = 0;
  private committedSlots = 0;
  private readonly notes: FlatNotes;
  private readonly f32: Float32Slots;
  private pendingMeta: string[] = [];
  private readonly rows: ChunkLogRows;

  constructor(
    readonly dir: string,
    readonly header: StoreHeader,
    private readonly options: FlatStoreOptions = {},
  ) {
    this.f32 = new Float32Slots(header.dim, dir);
    this.notes = new FlatNotes(dir);
    this.rows = new ChunkLogRows(dir);
    this.notes.readRows = (rows) => this.rows.read(rows);
  }

  get count(): number {
    return this.notes.live;
  }

  /** The lock every writer of this index holds while it changes files (and only then). */
  get writerLockPath(): string {
    return path.join(this.dir, WRITER_LOCK);
  }

  /** Runs `work` holding the index's cross-process writer lock (for files kept beside the index). */
  withWriterLock<T>(work: () => Promise<T>): Promise<T> {
    return withLock(this.writerLockPath, work, { waitMs: LOCK_WAIT_MS, notice: this.options.notice });
  }

  /**
   * Reads the committed state without the lock and without changing any file: another process may
   * be committing or compacting right now. A generation that vanishes under the read (a compaction
   * finished) is read again from the new manifest.
   */
  async open(): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true }).catch((error: unknown) => {
      throw new StoreFolderError(this.dir, error);
    });
    for (let attempt = 0; ; attempt++) {
      const m = await readManifest(this.dir);
      if (!m) {
        const created = await this.withWriterLock(async () => {
          if (await readManifest(this.dir)) return false;
          await this.reset(1);
          return true;
        });
        if (created) return;
        continue;
      }
      try {
        await this.load(m);
        this.f32.openRecorded(this.files().f32);
        break;
      } catch (error) {
        const now = await readManifest(this.dir).catch(() => undefined);
        const moved = now !== undefined && !sameCommit(now, m);
        if (!(error instanceof StoreCorruptError) || !moved || attempt >= OPEN_ATTEMPTS) throw error;
      }
    }
    await trimLeftovers(this.dir, this.manifest, this.options.notice);
  }

  private async load(m: Manifest): Promise<void> {
    const h = m.header;
    if (h.providerType !== this.header.providerType || h.model !== this.header.model || h.dim !== this.header.dim) {
      throw new StoreHeaderMismatchError(h, this.header);
    }
    if (m.version !== VERSION || m.q8.bytes !== m.slots * m.dimPad || m.f32.bytes !== m.slots * h.dim * 4) {
      throw new StoreCorruptError(`The index manifest in ${this.dir} is inconsistent.`);
    }
    this.notes.clear();
    this.manifest = m;
    this.q8.layout(m.dimPad);
    this.ensureCapacity(m.slots);
    const files = this.files();
    await readChecked(files.q8, m.q8, this.q8.bytes(0, m.slots));
    if (this.options.verifyOnOpen) verifyStreaming(files.f32, m.f32);
    this.slots = this.committedSlots = m.slots;
    const damaged = (cause: unknown): never => {
      throw new StoreCorruptError(`The chunk list of the index in ${this.dir} is damaged.`, { cause });
    };
    this.rows.open(files.meta);
    await readChunkLogFile(files.meta, m.meta, (note) => this.notes.applyDecoded(note, this.slots), damaged);
  }

  async upsertNote(notePath: string, chunks: ChunkRecord[], vectors: Float32Array[], contentHash?: string): Promise<void> {
    if (chunks.length !== vectors.length) throw new StoreUsageError(`${chunks.length} chunks but ${vectors.length} vectors.`);
    for (const v of vectors) {
      if (v.length !== this.header.dim) throw new StoreUsageError(`A vector has ${v.length} dims; the index has ${this.header.dim}.`);
    }
    const hash = contentHash ?? chunks[0]?.contentHash ?? '';
    const line: NoteLine = { put: notePath, hash, chunks: [] };
    this.ensureCapacity(this.slots + chunks.length);
    chunks.forEach((chunk, i) => {
      const slot = this.slots++;
      const v = normalized(vectors[i]);
      const q = quantizeInto(v, this.q8.slot(slot));
      this.f32.stage(slot, v);
      const crc = crc32(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      line.chunks.push({ chunk: { ...chunk, notePath, contentHash: hash }, slot, scale: q.scale, error: q.error, crc });
    });
    this.notes.apply(line, Math.max(this.slots, this.committedSlots));
    this.pendingMeta.push(encodeNote(line));
  }

  async removeNote(notePath: string): Promise<void> {
    if (!this.notes.has(notePath)) return;
    const line: NoteLine = { del: notePath };
    this.notes.apply(line, Math.max(this.slots, this.committedSlots));
    this.pendingMeta.push(encodeNote(line));
  }

  noteHashes(): Map<string, string> {
    return this.notes.hashes();
  }

  /** The chunk log's committed bytes and CRC in this generation name every note and its hash. */
  commitStamp(): string | undefined {
    if (this.pendingMeta.length > 0 || !this.manifest) return undefined;
    const { gen, meta } = this.manifest;
    return `flat/${gen}/${meta.bytes}/${meta.crc}`;
  }

  noteChunks(notePath: string): ChunkRecord[] {
    return this.notes.chunksOf(notePath);
  }

  *chunks(): Iterable<ChunkRecord> {
    for (let i = 0; i < this.slots; i++) if (this.notes.table.alive[i]) yield this.notes.chunkAt(i);
  }

  /** Every live chunk with its float32 vector (a copy): `hearth index --copy-to` moves them by text hash. */
  *chunkVectors(): Iterable<[ChunkRecord, Float32Array]> {
    for (let i = 0; i < this.slots; i++) if (this.notes.table.alive[i]) yield [this.notes.chunkAt(i), this.vector(i).slice()];
  }

  /** One note's float32 vectors (copies), in the order of noteChunks: related notes average them. */
  noteVectors(notePath: string): Float32Array[] {
    return this.notes.slotsOf(notePath).map((slot) => this.vector(slot).slice());
  }

  async search(query: Float32Array, k: number, options: SearchOptions = {}): Promise<SearchHit[]> {
    if (query.length !== this.header.dim) throw new StoreUsageError(`The query has ${query.length} dims; the index has ${this.header.dim}.`);
    if (k <= 0 || this.notes.live === 0) return [];
    const q = normalized(query);
    const qq = quantizeInto(q, this.q8.query());
    const raw = this.q8.scan(this.slots);
    const filter = options.filter;
    const table = this.notes.table;
    const top = exactTopK(
      {
        raw,
        scale: table.scale,
        err: table.err,
        maxErr: table.maxErr,
        alive: table.alive,
        slots: this.slots,
        query: q,
        queryScale: qq.scale,
        queryErr: qq.error,
        vector: (slot) => this.vector(slot),
        allowed: filter && ((slot) => filter(this.notes.chunkAt(slot))),
      },
      k,
    );
    // Most hits of a hybrid search never show their text: a note's chunk rows are parsed when one is read.
    return top.map(({ score, slot }) => {
      const chunkOf = this.notes.chunkReader(slot);
      return {
        score,
        notePath: this.notes.table.note[slot],
        get chunk() {
          return chunkOf();
        },
      };
    });
  }

  async commit(): Promise<void> {
    if (this.pendingMeta.length === 0) return;
    await this.withWriterLock(async () => {
      if (await this.commitLocked()) await this.compactLocked();
    });
  }

  /** Appends the staged notes past the committed ends and switches the manifest; true when compaction is due. */
  private async commitLocked(): Promise<boolean> {
    const files = this.files();
    const m = this.manifest;
    await this.assertUnchangedOnDisk();
    const q8 = this.q8.bytes(this.committedSlots, this.slots).slice();
    const f32 = this.f32.stagedRange(this.committedSlots, this.slots);
    const meta = Buffer.from(this.pendingMeta.join('\n') + '\n', 'utf8');
    const next: Manifest = { ...m, slots: this.slots };
    next.q8 = appendSynced(files.q8, m.q8, q8);
    next.f32 = appendSynced(files.f32, m.f32, new Uint8Array(f32.buffer));
    next.meta = appendSynced(files.meta, m.meta, meta);
    await writeManifest(this.dir, next);
    this.manifest = next;
    this.committedSlots = this.slots;
    this.f32.dropStaged();
    this.pendingMeta = [];
    const dead = this.slots - this.notes.live;
    return dead >= (this.options.compactMinDead ?? 1024) && dead > (this.options.compactRatio ?? 0.3) * this.slots;
  }

  async clear(): Promise<void> {
    this.f32.close();
    await this.withWriterLock(async () => {
      const onDisk = await readManifest(this.dir).catch(() => undefined);
      await this.reset(Math.max(this.manifest?.gen ?? 0, onDisk?.gen ?? 0) + 1);
    });
  }

  async dispose(): Promise<void> {
    this.rows.close();
    this.f32.close();
    this.f32.dropStaged();
    this.pendingMeta = [];
  }

  /** Rewrites the live slots into a new generation; the manifest rename switches to it atomically. */
  async compact(): Promise<void> {
    await this.withWriterLock(async () => {
      if (this.pendingMeta.length) await this.commitLocked();
      await this.compactLocked();
    });
  }

  private async compactLocked(): Promise<void> {
    await this.assertUnchangedOnDisk();
    const gen = this.manifest.gen + 1;
    const dim = this.header.dim;
    const { order, q8, f32, meta } = liveGeneration(this.notes, this.q8, (slot) => this.vector(slot), dim);
    const next: Manifest = { ...this.manifest, gen, slots: order.length, ...writeGeneration(this.dir, gen, { q8, f32, meta }) };
    await writeManifest(this.dir, next);
    this.f32.close();
    // The old log stays open: a hit handed out before the compaction still reads its note's rows from it.
    this.manifest = next;
    this.q8.bytes(0, order.length).set(q8);
    this.notes.moved(order);
    this.slots = this.committedSlots = order.length;
    this.f32.open(this.files().f32);
    await removeOtherGenerations(this.dir, gen);
  }

  /** Two writers (editor and CLI) must not append over each other: the later one is told to reopen. */
  private async assertUnchangedOnDisk(): Promise<void> {
    const onDisk = await readManifest(this.dir).catch(() => undefined);
    if (!onDisk || !sameCommit(onDisk, this.manifest)) throw new StoreConflictError(this.dir);
  }

  /** Starts an empty generation `gen`; only under the writer lock (it truncates that generation's files). */
  private async reset(gen: number): Promise<void> {
    const dimPad = Math.ceil(this.header.dim / 16) * 16;
    const empty: FileState = { bytes: 0, crc: 0 };
    for (const file of Object.values(generationFiles(this.dir, gen))) await fsp.writeFile(file, '');
    this.manifest = { format: FORMAT, version: VERSION, header: { ...this.header }, gen, dimPad, slots: 0, q8: empty, f32: empty, meta: empty };
    await writeManifest(this.dir, this.manifest);
    await removeOtherGenerations(this.dir, gen);
    this.q8.layout(dimPad);
    this.slots = this.committedSlots = 0;
    this.notes.clear();
    this.f32.dropStaged();
    this.pendingMeta = [];
    this.f32.open(this.files().f32);
  }

  private ensureCapacity(slots: number): void {
    this.notes.table.reserve(slots);
    this.q8.ensureCapacity(this.notes.table.capacity);
  }

  private vector(slot: number): Float32Array {
    return this.f32.vector(slot, this.notes.table.crc[slot]);
  }

  private files() {
    return generationFiles(this.dir, this.manifest.gen);
  }
}
