import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import type { ChunkRecord } from '../store/vectorStore';
import { comparePaths, crcOf, LEXICAL_FILE, LEXICAL_MAGIC, LEXICAL_SHAPE, LEXICAL_VERSION, LexicalFileError, READ_WHOLE_VERSIONS } from './lexicalFile';
import { bodyLayout, type BodyLayout, type LexicalHeader, type Part } from './lexicalLayout';
import { bestNotes, lexicalQuery, sectionRelevance, type LexicalQuery } from './noteBm25Scoring';
import type { NoteBm25Parts } from './noteBm25Snapshot';
import { DEFAULT_FIELDS, FIELDS } from './noteFields';
import type { QueryLexicon } from './queryLexicon';
import { TermList } from './termList';
import { searchTerms } from './tokenize';

const F = FIELDS.length;
/** As lexicalQuery: a query's first this many distinct words count. */
const MAX_QUERY_TERMS = 256;
/** A header longer than this is not one Hearth wrote. */
const MAX_HEADER_BYTES = 1 << 16;

/**
 * The lexical file read by position, for a process that searches a few times and ends (a cold
 * `hearth search`): the term list, term offsets, field lengths and note rows are read (a few MB at
 * 50k notes, checked against their CRC), and each query reads only its own terms' postings (checked
 * against each term's CRC). Nothing is decoded per note but the rows of the notes a search shows or
 * looks up. Scores are NoteBm25's: the same scoring runs over the query's postings alone.
 *
 * Only a file whose stamp is the opened store's commit is read so (StoreBm25.forQuery): every note
 * in it is then the store's as it is, and no note's hash needs comparing.
 */
export class DiskLexicon implements QueryLexicon {
  private readonly queries = new WeakMap<LexicalQuery, NoteBm25Parts>();
  private readonly paths = new Map<number, string>();
  private readonly totals = new Float64Array(F);
  private readonly dead: Uint8Array;
  private lastScoring?: { q: LexicalQuery; top: number; result: ReturnType<typeof bestNotes> };
  private lastQuery?: { text: string; q: LexicalQuery };
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly dir: string,
    private readonly header: LexicalHeader,
    private readonly layout: BodyLayout,
    /** Where the body starts in the file. */
    private readonly bodyAt: number,
    private readonly terms: TermList,
    private readonly offsets: Uint32Array,
    private readonly lengths: Float32Array,
    private readonly rowStarts: Uint32Array,
    private readonly order: Uint32Array,
    private readonly termCrcs: Uint32Array,
    private readonly rows: Buffer,
  ) {
    for (let doc = 0; doc < header.notes; doc++) for (let f = 0; f < F; f++) this.totals[f] += lengths[doc * F + f];
    this.dead = new Uint8Array(header.notes);
  }

  /**
   * The lexical file of `dir` when it was written for the store commit `stamp` (undefined when
   * there is none, it reflects another commit, or it is of an earlier version); `stamp` null: any
   * commit (a caller that checks each note's hash itself: text search's prefilter). Throws
   * LexicalFileError when it is damaged, truncated or foreign.
   */
  static async open(dir: string, stamp: string | null): Promise<DiskLexicon | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(path.join(dir, LEXICAL_FILE), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new LexicalFileError(`The lexical index in ${dir} cannot be read.`, { cause: error });
    }
    try {
      const lexicon = await DiskLexicon.read(handle, dir, stamp);
      if (!lexicon) await handle.close();
      return lexicon;
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw new LexicalFileError(`The lexical index in ${dir} is damaged (${(error as Error).message}); it is rebuilt from the vector store.`, { cause: error });
    }
  }

  private static async read(handle: FileHandle, dir: string, stamp: string | null): Promise<DiskLexicon | undefined> {
    const { size } = await handle.stat();
    const prefix = await readAt(handle, 0, LEXICAL_MAGIC.length + 4, size);
    if (prefix.subarray(0, LEXICAL_MAGIC.length).toString('latin1') !== LEXICAL_MAGIC) throw new Error('not a Hearth lexical index');
    const headerLength = prefix.readUInt32LE(LEXICAL_MAGIC.length);
    if (headerLength > MAX_HEADER_BYTES) throw new Error('its header is too long');
    const header = JSON.parse((await readAt(handle, prefix.length, headerLength, size)).toString('utf8')) as LexicalHeader;
    if (header?.format !== 'hearth-lexical') throw new Error('not a Hearth lexical index');
    // Earlier versions, other ranking parameters, another commit: the whole file is read (and checked) instead.
    if (header.version !== LEXICAL_VERSION) {
      if (typeof header.version === 'number' && (header.version < LEXICAL_VERSION || READ_WHOLE_VERSIONS.includes(header.version))) return undefined;
      throw new Error(`unknown version ${header.version}`);
    }
    if (header.shape !== LEXICAL_SHAPE || header.params !== JSON.stringify(DEFAULT_FIELDS) || (stamp !== null && header.stamp !== stamp)) return undefined;
    for (const key of ['terms', 'postings', 'notes', 'termBytes', 'notesBytes', 'chunkTotal', 'lazyCrc'] as const) {
      if (!Number.isSafeInteger(header[key]) || (header[key] as number) < 0) throw new Error(`its header's ${key} is not a count`);
    }
    const layout = bodyLayout(header);
    const bodyAt = prefix.length + headerLength;
    if (size !== bodyAt + layout.end) throw new Error(size < bodyAt + layout.end ? 'shorter than its header says' : 'longer than its header says');
    const part = (p: Part) => readAt(handle, bodyAt + p[0], p[1], size);
    const [termText, offsets, lengths, rowStarts, order, termCrcs, rows] = await Promise.all([
      part(layout.terms), part(layout.offsets), part(layout.lengths), part(layout.rowStarts), part(layout.order), part(layout.termCrcs), part(layout.notes),
    ]);
    if (crcOf([termText, offsets, lengths, rowStarts, order, termCrcs, rows]) !== header.lazyCrc) throw new Error('checksum mismatch');
    const lexicon = new DiskLexicon(
      handle, dir, header, layout, bodyAt, TermList.parse(termText.toString('utf8'), header.terms),
      view(offsets, Uint32Array), view(lengths, Float32Array), view(rowStarts, Uint32Array), view(order, Uint32Array), view(termCrcs, Uint32Array), rows,
    );
    lexicon.check();
    return lexicon;
  }

  /** What a crafted file with right CRCs could still get wrong: every number a search will index with. */
  private check(): void {
    const { offsets, lengths, rowStarts, order, header } = this;
    if (offsets[0] !== 0 || offsets[header.terms] !== header.postings) throw new Error('inconsistent counts');
    for (let t = 0; t < header.terms; t++) if (offsets[t + 1] < offsets[t]) throw new Error('the term offsets are out of order');
    for (const value of lengths) if (!(value >= 0 && value < Infinity)) throw new Error('a field length is not a count');
    if (rowStarts[0] !== 0 || (header.notes > 0 && rowStarts[header.notes] !== header.notesBytes + 1)) throw new Error('the note rows are inconsistent');
    for (let doc = 0; doc < header.notes; doc++) if (rowStarts[doc + 1] <= rowStarts[doc]) throw new Error('the note rows are out of order');
    const seen = new Uint8Array(header.notes);
    for (const doc of order) {
      if (doc >= header.notes || seen[doc]) throw new Error('the path order is not one of the notes');
      seen[doc] = 1;
    }
  }

  /** Notes in the file. */
  get size(): number {
    return this.header.notes;
  }

  /** The query's terms with their idf; its postings are read (and checked) here, once per text. */
  query(text: string): LexicalQuery {
    if (this.lastQuery?.text === text) return this.lastQuery.q;
    const parts = this.partsFor(text);
    const q = lexicalQuery(parts, text);
    this.queries.set(q, parts);
    this.lastQuery = { text, q };
    return q;
  }

  relevances(q: LexicalQuery, top: number, alsoPaths: Iterable<string>): Map<string, number> {
    const { scores, ranked } = this.scoring(q, top);
    const out = new Map(ranked.map(({ score, slot }) => [this.pathOf(slot), score]));
    for (const notePath of alsoPaths) {
      const doc = this.docOf(notePath);
      if (doc !== undefined && scores[doc] > 0) out.set(notePath, scores[doc]);
    }
    return out;
  }

  sectionRelevance(q: LexicalQuery, chunk: ChunkRecord): number {
    const chunks = this.header.chunkTotal ?? 0;
    return sectionRelevance(q, chunk, chunks > 0 ? this.totals[3] / chunks : undefined, DEFAULT_FIELDS.body.b);
  }

  /** The store holds the chunks. */
  chunksOf(): undefined {
    return undefined;
  }

  /** Paths of the notes holding every term (text search's prefilter); none when a term is not in the file. */
  notesHoldingAll(terms: readonly string[]): Set<string> {
    const parts = this.partsFor(terms.join(' '), terms);
    const ranges = [...new Set(terms)].map((term) => {
      const id = parts.termIds.get(term);
      return id === undefined ? [0, 0] : [parts.offsets[id], parts.offsets[id + 1]];
    });
    const counts = new Uint32Array(this.size);
    ranges.forEach(([from, to], k) => {
      for (let p = from; p < to; p++) if (counts[parts.postDocs[p]] === k) counts[parts.postDocs[p]] = k + 1;
    });
    const holding = new Set<string>();
    counts.forEach((count, doc) => {
      if (count === ranges.length && ranges.length > 0) holding.add(this.pathOf(doc));
    });
    return holding;
  }

  /** The content hash each note was indexed at, by path (decodes every row: text search's prefilter). */
  hashes(): Map<string, string> {
    // One parse of every row as one JSON array: 50k parses of a row each took ~5× as long.
    let rows: unknown;
    try {
      rows = this.size === 0 ? [] : JSON.parse(`[${this.rows.toString('utf8').replaceAll('\n', ',')}]`);
    } catch {
      rows = undefined;
    }
    if (!Array.isArray(rows) || rows.length !== this.size) this.damaged('a note row is malformed');
    const hashes = new Map<string, string>();
    for (const row of rows as unknown[]) {
      if (!isRow(row)) this.damaged('a note row is malformed');
      hashes.set(row[0], row[2]);
    }
    return hashes;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close().catch(() => undefined);
  }

  private scoring(q: LexicalQuery, top: number): ReturnType<typeof bestNotes> {
    const last = this.lastScoring;
    if (last?.q === q && last.top === top) return last.result;
    const result = bestNotes(this.queries.get(q) ?? this.partsFor(q.text), DEFAULT_FIELDS, q, top);
    this.lastScoring = { q, top, result };
    return result;
  }

  /**
   * The query's terms and their postings alone, shaped as NoteBm25's parts (term ids local to the
   * query), so lexicalQuery and bestNotes score them exactly as they score the whole index.
   */
  private partsFor(text: string, wanted: readonly string[] = [...new Set(searchTerms(text))].slice(0, MAX_QUERY_TERMS)): NoteBm25Parts {
    const found: { term: string; from: number; to: number; id: number }[] = [];
    for (const term of new Set(wanted)) {
      const id = this.terms.indexOf(term);
      if (id >= 0) found.push({ term, id, from: this.offsets[id], to: this.offsets[id + 1] });
    }
    const total = found.reduce((sum, t) => sum + t.to - t.from, 0);
    const offsets = new Uint32Array(found.length + 1);
    const postDocs = new Uint32Array(total);
    const postTfs = new Uint16Array(total * F);
    const termIds = new Map<string, number>();
    found.forEach(({ term, id, from, to }, local) => {
      const at = offsets[local];
      offsets[local + 1] = at + to - from;
      termIds.set(term, local);
      if (to === from) return;
      const docs = new Uint8Array(postDocs.buffer, at * 4, (to - from) * 4);
      const tfs = new Uint8Array(postTfs.buffer, at * F * 2, (to - from) * F * 2);
      this.readPart(this.layout.postDocs, from * 4, docs);
      this.readPart(this.layout.postTfs, from * F * 2, tfs);
      if (crc32(tfs, crc32(docs)) !== this.termCrcs[id]) this.damaged(`the postings of a term fail their checksum`);
      for (let p = at; p < offsets[local + 1]; p++) if (postDocs[p] >= this.size) this.damaged('a posting names a missing note');
    });
    return {
      termIds, offsets, postDocs, postTfs, added: new Map(), docs: new Array<{ path: string; chunkCount: number }>(this.size),
      dead: this.dead, live: this.size, lengths: this.lengths, totals: this.totals,
    };
  }

  private readPart(part: Part, offset: number, into: Uint8Array): void {
    let done = 0;
    while (done < into.length) {
      const read = readSync(this.handle.fd, into, done, into.length - done, this.bodyAt + part[0] + offset + done);
      if (read === 0) this.damaged('shorter than its header says');
      done += read;
    }
  }

  private row(doc: number): [string, number, string] {
    let row: unknown;
    try {
      row = JSON.parse(this.rows.toString('utf8', this.rowStarts[doc], this.rowStarts[doc + 1] - 1));
    } catch {
      row = undefined;
    }
    if (!isRow(row)) this.damaged('a note row is malformed');
    return row;
  }

  private pathOf(doc: number): string {
    let notePath = this.paths.get(doc);
    if (notePath === undefined) this.paths.set(doc, (notePath = this.row(doc)[0]));
    return notePath;
  }

  /** The note's number, found by binary search in the path order. */
  private docOf(notePath: string): number | undefined {
    let low = 0;
    let high = this.order.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const doc = this.order[mid];
      const order = comparePaths(this.pathOf(doc), notePath);
      if (order === 0) return doc;
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }

  private damaged(why: string): never {
    throw new LexicalFileError(`The lexical index in ${this.dir} is damaged (${why}); it is rebuilt from the vector store.`);
  }
}

function isRow(row: unknown): row is [string, number, string] {
  return Array.isArray(row) && row.length === 3 && typeof row[0] === 'string' && typeof row[1] === 'number' && typeof row[2] === 'string';
}

/** `bytes` bytes at `position`, all of them (a file shorter than that is damaged). */
async function readAt(handle: FileHandle, position: number, bytes: number, size: number): Promise<Buffer> {
  if (position + bytes > size) throw new Error('shorter than its header says');
  // Aligned for the typed views made over it (allocUnsafe may hand out an unaligned slice of its pool).
  const buffer = Buffer.from(new ArrayBuffer(bytes));
  let done = 0;
  while (done < bytes) {
    const { bytesRead } = await handle.read(buffer, done, bytes - done, position + done);
    if (bytesRead === 0) throw new Error('shorter than its header says');
    done += bytesRead;
  }
  return buffer;
}

function view<T>(bytes: Buffer, Type: { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number }): T {
  return new Type(bytes.buffer, bytes.byteOffset, bytes.length / Type.BYTES_PER_ELEMENT);
}
