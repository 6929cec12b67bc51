import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { LocalIndex } from 'vectra';
import { normalized } from './quantize';
import { StoreCorruptError, StoreFolderError, StoreHeaderMismatchError, StoreUsageError, type ChunkRecord, type SearchHit, type SearchOptions, type StoreHeader, type VectorStore } from './vectorStore';

const HEADER = 'hearth-header.json';
const INDEX = 'index.json';
// Notes without chunks have no vectra item to carry their hash; they are listed here instead.
const EMPTY = 'hearth-empty-notes.json';

type Meta = { notePath: string; title: string; heading: string; start: number; end: number; text: string; hash: string; chunkId: string };

/**
 * The VectorStore on vectra's LocalIndex (one JSON file, loaded whole): for small kilns and as the
 * benchmark's baseline. Writes are staged here and applied in one vectra update on commit(); a
 * file cut short by a crash fails to parse and is reported as corrupt. Search sees committed state.
 */
export class VectraStore implements VectorStore {
  readonly kind = 'vectra' as const;
  private index: LocalIndex<Meta>;
  private notes = new Map<string, { hash: string; chunks: ChunkRecord[]; ids: string[] }>();
  private pending: ({ put: string; items: { id: string; vector: number[]; metadata: Meta }[] } | { del: string })[] = [];
  private committedIds = new Map<string, string[]>();
  private seq = 0;

  constructor(
    readonly dir: string,
    readonly header: StoreHeader,
  ) {
    this.index = new LocalIndex<Meta>(dir, INDEX);
  }

  get count(): number {
    let n = 0;
    for (const note of this.notes.values()) n += note.chunks.length;
    return n;
  }

  async open(): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true }).catch((error: unknown) => {
      throw new StoreFolderError(this.dir, error);
    });
    if (!(await this.index.isIndexCreated())) return this.reset();
    let onDisk: StoreHeader;
    try {
      onDisk = JSON.parse(await fsp.readFile(path.join(this.dir, HEADER), 'utf8')) as StoreHeader;
    } catch (error) {
      throw new StoreCorruptError(`The index header in ${this.dir} is missing or damaged.`, { cause: error });
    }
    if (onDisk.providerType !== this.header.providerType || onDisk.model !== this.header.model || onDisk.dim !== this.header.dim) {
      throw new StoreHeaderMismatchError(onDisk, this.header);
    }
    let items;
    try {
      items = await this.index.listItems();
    } catch (error) {
      throw new StoreCorruptError(`The vectra index in ${this.dir} cannot be read.`, { cause: error });
    }
    for (const item of items) {
      const m = item.metadata;
      if (!m || typeof m.notePath !== 'string' || item.vector?.length !== this.header.dim) {
        throw new StoreCorruptError(`The vectra index in ${this.dir} holds an item Hearth did not write.`);
      }
      const note = this.notes.get(m.notePath) ?? { hash: m.hash, chunks: [], ids: [] };
      note.chunks.push(toChunk(m));
      note.ids.push(item.id);
      this.notes.set(m.notePath, note);
    }
    for (const [p, n] of this.notes) this.committedIds.set(p, [...n.ids]);
    const empty = await fsp.readFile(path.join(this.dir, EMPTY), 'utf8').catch(() => '{}');
    try {
      for (const [p, hash] of Object.entries(JSON.parse(empty) as Record<string, string>)) {
        if (!this.notes.has(p)) this.notes.set(p, { hash, chunks: [], ids: [] });
      }
    } catch (error) {
      throw new StoreCorruptError(`The empty-note list of the index in ${this.dir} is damaged.`, { cause: error });
    }
  }

  async upsertNote(notePath: string, chunks: ChunkRecord[], vectors: Float32Array[], contentHash?: string): Promise<void> {
    if (chunks.length !== vectors.length) throw new StoreUsageError(`${chunks.length} chunks but ${vectors.length} vectors.`);
    const hash = contentHash ?? chunks[0]?.contentHash ?? '';
    const items = chunks.map((chunk, i) => {
      if (vectors[i].length !== this.header.dim) throw new StoreUsageError(`A vector has ${vectors[i].length} dims; the index has ${this.header.dim}.`);
      const metadata: Meta = {
        notePath, title: chunk.title, heading: JSON.stringify(chunk.headingPath), start: chunk.startLine, end: chunk.endLine, text: chunk.text, hash, chunkId: chunk.id,
      };
      // Item ids are ours (unique per write), so replacing a note never collides with its old ids.
      return { id: `${Date.now().toString(36)}-${(this.seq++).toString(36)}`, vector: Array.from(normalized(vectors[i])), metadata };
    });
    this.pending.push({ put: notePath, items });
    this.notes.set(notePath, { hash, chunks: items.map((i) => toChunk(i.metadata)), ids: items.map((i) => i.id) });
  }

  async removeNote(notePath: string): Promise<void> {
    if (!this.notes.delete(notePath)) return;
    this.pending.push({ del: notePath });
  }

  noteHashes(): Map<string, string> {
    return new Map([...this.notes].map(([p, n]) => [p, n.hash]));
  }

  noteChunks(notePath: string): ChunkRecord[] {
    return [...(this.notes.get(notePath)?.chunks ?? [])];
  }

  *chunks(): Iterable<ChunkRecord> {
    for (const note of this.notes.values()) yield* note.chunks;
  }

  async search(query: Float32Array, k: number, options: SearchOptions = {}): Promise<SearchHit[]> {
    if (query.length !== this.header.dim) throw new StoreUsageError(`The query has ${query.length} dims; the index has ${this.header.dim}.`);
    if (k <= 0) return [];
    const filter = options.filter;
    const results = await this.index.queryItems(Array.from(normalized(query)), '', filter ? Number.MAX_SAFE_INTEGER : k);
    const hits: SearchHit[] = [];
    for (const r of results) {
      const chunk = toChunk(r.item.metadata);
      if (filter && !filter(chunk)) continue;
      hits.push({ chunk, notePath: chunk.notePath, score: r.score });
      if (hits.length === k) break;
    }
    return hits;
  }

  async commit(): Promise<void> {
    if (this.pending.length === 0) return;
    await this.index.beginUpdate();
    try {
      for (const op of this.pending) {
        const notePath = 'put' in op ? op.put : op.del;
        for (const id of this.committedIds.get(notePath) ?? []) await this.index.deleteItem(id);
        this.committedIds.delete(notePath);
        if ('put' in op) {
          for (const item of op.items) await this.index.insertItem(item);
          this.committedIds.set(notePath, op.items.map((i) => i.id));
        }
      }
      await this.index.endUpdate();
    } catch (error) {
      this.index.cancelUpdate();
      throw error;
    }
    this.pending = [];
    await this.writeEmptyNotes();
  }

  async clear(): Promise<void> {
    await this.reset();
  }

  async dispose(): Promise<void> {
    this.pending = [];
  }

  private async reset(): Promise<void> {
    await this.index.createIndex({ version: 1, deleteIfExists: true });
    await atomicWrite(path.join(this.dir, HEADER), JSON.stringify(this.header));
    this.notes.clear();
    this.committedIds.clear();
    this.pending = [];
    await this.writeEmptyNotes();
  }

  private async writeEmptyNotes(): Promise<void> {
    const empty: Record<string, string> = {};
    for (const [p, n] of this.notes) if (n.chunks.length === 0 && this.committedIds.has(p)) empty[p] = n.hash;
    await atomicWrite(path.join(this.dir, EMPTY), JSON.stringify(empty));
  }
}

async function atomicWrite(file: string, text: string): Promise<void> {
  await fsp.writeFile(`${file}.tmp`, text);
  await fsp.rename(`${file}.tmp`, file);
}

function toChunk(m: Meta): ChunkRecord {
  return {
    id: m.chunkId, notePath: m.notePath, title: m.title, headingPath: JSON.parse(m.heading) as string[], startLine: m.start, endLine: m.end, text: m.text, contentHash: m.hash,
  };
}
