import { parseRows, type DecodedLine, type NoteLine, type RowsAt } from './flatMeta';
import { SlotTable } from './slotTable';
import { StoreCorruptError, type ChunkRecord } from './vectorStore';

/** A note whose rows were already turned into records (defensive: chunkAt finds those cached). */
const NO_ROWS = Buffer.from('[]');

interface FlatNote {
  hash: string;
  slots: number[];
  /** The note's chunk rows as read from the chunk log, or where they lie in it, until a result shows one of them. */
  rows?: Uint8Array | RowsAt;
  /** Its chunks, once read (kept with the note, so a reader made before the note changed still finds them). */
  records?: ChunkRecord[];
}

/**
 * The flat store's notes in memory: which slots each note holds, its content hash, and per slot
 * what the search loops read (the SlotTable). The chunk log's lines are applied here in order, as
 * read on open and as staged by writes; the store owns the files and the vectors.
 */
export class FlatNotes {
  readonly table = new SlotTable();
  private readonly notes = new Map<string, FlatNote>();
  private liveSlots = 0;

  /** Reads rows left in the chunk log file (the store sets it when it opens the file). */
  readRows: (rows: RowsAt) => Uint8Array = () => {
    throw new StoreCorruptError(`The chunk list of the index in ${this.dir} is not open.`);
  };

  constructor(
    /** The store's folder, for messages. */
    private readonly dir: string,
  ) {}

  /** Live chunks. */
  get live(): number {
    return this.liveSlots;
  }

  has(notePath: string): boolean {
    return this.notes.has(notePath);
  }

  hashes(): Map<string, string> {
    const hashes = new Map<string, string>();
    for (const [notePath, note] of this.notes) hashes.set(notePath, note.hash);
    return hashes;
  }

  /** The note's slots, in chunk order (empty for a note not held). */
  slotsOf(notePath: string): readonly number[] {
    return this.notes.get(notePath)?.slots ?? [];
  }

  chunksOf(notePath: string): ChunkRecord[] {
    return this.notes.get(notePath)?.slots.map((slot) => this.chunkAt(slot)) ?? [];
  }

  /** Every note with its hash and slots, in the order they were applied. */
  entries(): IterableIterator<[string, { hash: string; slots: readonly number[] }]> {
    return this.notes.entries();
  }

  /** A note staged by a write (its chunks in hand). `slotLimit`: slots at or past it do not exist. */
  apply(line: NoteLine, slotLimit: number): void {
    const notePath = 'put' in line ? line.put : line.del;
    this.drop(notePath);
    if (!('put' in line)) return;
    for (const c of line.chunks) {
      this.take(notePath, c.slot, c.scale, c.error, c.crc, slotLimit);
      this.table.chunk[c.slot] = c.chunk;
    }
    this.notes.set(notePath, { hash: line.hash, slots: line.chunks.map((c) => c.slot), records: line.chunks.map((c) => c.chunk) });
  }

  /** A note read from the chunk log (its rows still bytes). */
  applyDecoded(line: DecodedLine, slotLimit: number): void {
    const notePath = 'put' in line ? line.put : line.del;
    this.drop(notePath);
    if (!('put' in line)) return;
    const { slots } = line;
    const first = slots[0];
    const end = first + slots.length;
    // A note's slots are one run unless the note was rewritten over freed slots: taken in bulk.
    if (slots.length > 0 && slots.every((slot, i) => slot === first + i)) {
      if (!Number.isInteger(first) || first < 0 || end > slotLimit || this.table.alive.subarray(first, end).includes(1)) this.corrupt();
      this.table.fillRun(first, notePath, line.scales, line.errors, line.crcs);
      this.liveSlots += slots.length;
    } else {
      slots.forEach((slot, i) => this.take(notePath, slot, line.scales[i], line.errors[i], line.crcs[i], slotLimit));
    }
    this.notes.set(notePath, { hash: line.hash, slots, rows: line.rows });
  }

  chunkAt(slot: number): ChunkRecord {
    return this.table.chunk[slot] ?? this.chunkReader(slot)();
  }

  /**
   * Reads the chunk of a live slot when called: a search hands these out, and a hybrid search reads
   * the chunks of a few of its notes only. It reads the same chunk after a compaction moved the
   * slot or a write replaced the note meanwhile (the note as it was is kept by the reader).
   */
  chunkReader(slot: number): () => ChunkRecord {
    const cached = this.table.chunk[slot];
    if (cached) return () => cached;
    const notePath = this.table.note[slot];
    const note = this.notes.get(notePath)!;
    const ordinal = note.slots.indexOf(slot);
    return () => this.recordsOf(notePath, note)[ordinal];
  }

  private recordsOf(notePath: string, note: FlatNote): ChunkRecord[] {
    if (note.records) return note.records;
    let chunks: ChunkRecord[];
    // Rows left in the file are read first: a store closed meanwhile says so, not that the index is damaged.
    const rows = note.rows === undefined ? NO_ROWS : note.rows instanceof Uint8Array ? note.rows : this.readRows(note.rows);
    try {
      chunks = parseRows(rows, notePath, note.hash, note.slots.length);
    } catch (error) {
      throw new StoreCorruptError(`The chunk list of the index in ${this.dir} is damaged.`, { cause: error });
    }
    note.rows = undefined;
    note.records = chunks;
    if (this.notes.get(notePath) === note) note.slots.forEach((s, i) => (this.table.chunk[s] = chunks[i]));
    return chunks;
  }

  /** After a compaction: the slots in `order` moved to 0…n−1. */
  moved(order: readonly number[]): void {
    const remap = new Map(order.map((slot, i) => [slot, i]));
    this.table.keep(order);
    for (const note of this.notes.values()) note.slots = note.slots.map((s) => remap.get(s)!);
  }

  clear(): void {
    this.table.clear();
    this.notes.clear();
    this.liveSlots = 0;
  }

  private drop(notePath: string): void {
    const old = this.notes.get(notePath);
    if (!old) return;
    for (const s of old.slots) if (this.table.free(s)) this.liveSlots--;
    this.notes.delete(notePath);
  }

  private take(notePath: string, slot: number, scale: number, error: number, crc: number, slotLimit: number): void {
    if (slot >= slotLimit || this.table.alive[slot]) this.corrupt();
    this.table.fill(slot, notePath, scale, error, crc);
    this.liveSlots++;
  }

  private corrupt(): never {
    throw new StoreCorruptError(`The chunk list of the index in ${this.dir} names a missing or reused slot.`);
  }
}
