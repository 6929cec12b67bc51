import { statSync } from 'node:fs';
import * as path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describeError } from '../../errors';
import type { Logger } from '../../host';
import { DiskLexicon } from './diskLexicon';
import { LEXICAL_FILE, LexicalFileError, readLexicalBytes, readLexicalFile, writeLexicalFile } from './lexicalFile';
import { NoteBm25 } from './noteBm25';
import type { NoteBm25Snapshot } from './noteBm25Snapshot';
import type { QueryLexicon } from './queryLexicon';
import type { ChunkRecord, VectorStore } from '../store/vectorStore';

/** A lexical file read ahead while the store opens is at most this large (a kiln of a few thousand notes). */
const PREFETCH_MAX_BYTES = 8 << 20;

/** What the lexical side must know of the index's runs (KilnIndex keeps the counters). */
export interface IndexRunState {
  /** Bumped when a run or a clear has changed the store. */
  readonly version: number;
  /** Bumped when a run starts and when it ends: a build that saw it move may have read moving chunks. */
  readonly mutations: number;
  /** Runs writing the store right now. */
  readonly writing: number;
}

/**
 * The in-process lexical (BM25) side of a flat or vectra store, kept in step with the store and
 * with its file beside it (`lexical.bin`). A store that ranks words itself (the team database) has
 * no need of it.
 */
export class StoreBm25 {
  /** `stamp`: the store commit `hashes` were taken at (VectorStore.commitStamp), written into the file. */
  private current?: { version: number; index: NoteBm25; hashes: Map<string, string>; stamp?: string; suspect?: boolean };
  /** The file read by position for the store commit `stamp` (forQuery), while nothing is loaded. */
  private disk?: { stamp: string; lexicon: DiskLexicon };
  private inFlight?: Promise<NoteBm25>;
  /** The lexical file is read once per store opening; later staleness rebuilds from the store. */
  private fileRead = false;
  /** Notes were swapped into the lexical index since its file was written. */
  private dirty = false;
  /** The file's bytes, read ahead of the first search (prefetch). */
  private prefetched?: Promise<Buffer | undefined>;

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
    private readonly state: () => IndexRunState,
  ) {}

  /**
   * Starts reading a small lexical file (not decoding it) while the store opens, so the first
   * search finds its bytes in memory. A large one is left to the first search or the editor's
   * warm-up: read beside a large store's files it slowed their reading (store cold load at 100k
   * chunks 200 → 370 ms). A read error waits for that search, which reports it.
   */
  prefetch(): void {
    if (this.fileRead || this.prefetched) return;
    let size: number;
    try {
      size = statSync(path.join(this.dir, LEXICAL_FILE)).size;
    } catch {
      return;
    }
    if (size > PREFETCH_MAX_BYTES) return;
    this.prefetched = readLexicalBytes(this.dir);
    this.prefetched.catch(() => undefined);
  }

  /**
   * The lexical (BM25) index, kept in step with the store by content hash: loaded from its file
   * beside the store on first need (or built from the store's chunks, in slices, when there is no
   * usable file), then every note whose hash differs from the store's is swapped in from the store
   * (one saved note does not rebuild it all), and the file is rewritten when anything changed.
   * Calls run one after the other: a search arriving during a build, or while the editor warms the
   * index, waits for it and then finds it ready instead of reading the file or building again.
   */
  /**
   * The word side for a search of `query`: while this process has loaded nothing yet (a cold
   * `hearth search`), the lexical file read by position when it was written for the very commit
   * the store holds — only the query's postings are read, and no note's hash is compared (at 50k
   * notes, reading and checking the whole file was ~300 ms and 100 MB). Otherwise, or when the file
   * cannot be used that way, `of`. The query's postings are read (and checked) here.
   */
  async forQuery(store: VectorStore, query: string): Promise<QueryLexicon> {
    const stamp = store.commitStamp?.();
    if (stamp === undefined || this.current || this.inFlight) return this.of(store);
    try {
      if (this.disk?.stamp !== stamp) {
        await this.closeDisk();
        const lexicon = await DiskLexicon.open(this.dir, stamp);
        if (lexicon) this.disk = { stamp, lexicon };
      }
      if (this.disk) {
        this.disk.lexicon.query(query);
        return this.disk.lexicon;
      }
    } catch (error) {
      // Damaged: the whole file is read next, which says so too and rebuilds it from the store.
      this.log.warn(describeError(error));
      await this.closeDisk();
    }
    return this.of(store);
  }

  private async closeDisk(): Promise<void> {
    const disk = this.disk;
    this.disk = undefined;
    await disk?.lexicon.close();
  }

  of(store: VectorStore): Promise<NoteBm25> {
    const next = (this.inFlight ?? Promise.resolve()).catch(() => undefined).then(() => this.refresh(store));
    this.inFlight = next;
    return next;
  }

  /**
   * After an index run: brings the word index up to date with the store and writes its file, so the
   * first search after the run reads it instead of building it from every chunk of the store (at
   * 100k chunks and a real vocabulary that build took 20–25 s and 1.5 GB, in the search). A fresh
   * process patches the file's index with the notes the run changed (their postings swapped, the
   * rest kept) and rewrites it; a long-lived host patches its loaded index and writes it on dispose.
   * A run that changed nothing leaves an existing file alone (a cold search's run must not load it).
   */
  async follow(store: VectorStore, changed: boolean): Promise<void> {
    if (store.lexicalSearch) return;
    if (!changed && (this.current !== undefined || this.hasFile())) return;
    try {
      await this.of(store);
    } catch (error) {
      // The run's vectors are committed: a failed word index costs the next search a build, never the run.
      this.log.warn(`the word index could not follow the index run: ${describeError(error)}`);
    }
  }

  private hasFile(): boolean {
    try {
      return statSync(path.join(this.dir, LEXICAL_FILE)).isFile();
    } catch {
      return false;
    }
  }

  /**
   * `of`, then the loaded index's terms mapped in slices (a long-lived host warming its search:
   * later saved notes then swap in without mapping them all at once).
   */
  async warm(store: VectorStore): Promise<NoteBm25> {
    const index = await this.of(store);
    await index.mapTerms();
    if (!index.termsListedTwice) return index;
    this.warnListedTwice();
    // The next refresh finds no current index and, the file read, builds from the store.
    if (this.current?.index === index) this.current = undefined;
    return this.of(store);
  }

  private async refresh(store: VectorStore): Promise<NoteBm25> {
    const { version, writing } = this.state();
    let lexical = this.current;
    if (lexical?.version === version && !lexical.suspect) return lexical.index;
    const current = store.noteHashes();
    const stamp = store.commitStamp?.();
    let fromFile = false;
    /** The file was of an earlier version, or written for another commit than the store's: rewritten once, so the next cold search reads it by position. */
    let rewrite = false;
    if (!lexical || lexical.index.stale || lexical.suspect) {
      const loaded = this.fileRead ? undefined : await this.load();
      this.fileRead = true;
      if (!loaded) return this.build(store, current, stamp);
      rewrite = loaded.older === true || (stamp !== undefined && loaded.stamp !== stamp);
      lexical = { version: loaded.version, index: loaded.index, hashes: loaded.hashes };
      fromFile = true;
    }
    const changed = await changedNotes(lexical.hashes, current);
    let index = lexical.index;
    // Adding a note maps every term of a loaded index: in slices, not in one go.
    if (changed.size > 0) await index.mapTerms();
    if (index.termsListedTwice) {
      this.warnListedTwice();
      return this.build(store, current, stamp);
    }
    for (const path of changed) index.removeNote(path);
    for (const path of changed) if (current.has(path)) index.addNote(noteChunks(store, path));
    if (index.stale) return this.build(store, current, stamp);
    // The stamp vouches for the file only if the store still holds that commit now its notes were read.
    const trusted = store.commitStamp?.() === stamp ? stamp : undefined;
    if (changed.size > 0 && fromFile) {
      // Notes changed since the file was written (another process indexed, or one was killed after
      // the store's commit): compacted, so the statistics are exactly a fresh build's, and saved.
      const snapshot = index.snapshot();
      index = await NoteBm25.load(snapshot);
      if (writing === 0) await this.save(snapshot, current, trusted);
    } else if (rewrite && writing === 0) {
      await this.save(index.snapshot(), current, trusted);
    } else if (changed.size > 0) {
      // A note saved in the editor: swapped in memory; the file follows on dispose (rewriting it on
      // every save would stall the extension host on a large kiln). Until then it is merely older.
      this.dirty = true;
    }
    this.current = { version, index, hashes: current, stamp: trusted };
    return index;
  }

  private async build(store: VectorStore, hashes: Map<string, string>, stamp: string | undefined): Promise<NoteBm25> {
    const { version, mutations } = this.state();
    // Note by note where the store can (its rows are parsed as the sliced build reaches them).
    const notes = store.noteChunks ? eachNote(store, hashes) : NoteBm25.notesOf(store.chunks());
    const index = await NoteBm25.build(notes);
    // A run that started meanwhile may have moved chunks under the build (a compaction): the
    // result still answers this search, and the next one rebuilds it.
    const now = this.state();
    const suspect = now.writing > 0 || now.mutations !== mutations;
    const trusted = store.commitStamp?.() === stamp ? stamp : undefined;
    this.current = { version, index, hashes, stamp: trusted, suspect };
    if (!suspect) await this.save(index.snapshot(), hashes, trusted);
    return index;
  }

  /** The lexical file, or undefined (none, built with other parameters, or damaged: said in the log). */
  private async load(): Promise<{ version: number; index: NoteBm25; hashes: Map<string, string>; stamp?: string | null; older?: boolean } | undefined> {
    try {
      const bytes = this.prefetched;
      this.prefetched = undefined;
      const file = await readLexicalFile(this.dir, bytes);
      return file && { version: -1, index: await NoteBm25.load(file.snapshot), hashes: file.hashes, stamp: file.stamp, older: file.older };
    } catch (error) {
      this.log.warn(describeError(error));
      return undefined;
    }
  }

  private warnListedTwice(): void {
    this.log.warn(describeError(new LexicalFileError(`The lexical index in ${this.dir} is damaged (a term is listed twice); it is rebuilt from the vector store.`)));
  }

  /** Best effort: a failed write costs the next process a rebuild, never a search. */
  private async save(snapshot: NoteBm25Snapshot, hashes: Map<string, string>, stamp: string | undefined): Promise<void> {
    this.dirty = false;
    try {
      await writeLexicalFile(this.dir, snapshot, hashes, stamp);
    } catch (error) {
      this.log.warn(`the lexical index could not be saved: ${describeError(error)}`);
    }
  }

  /** Waits for a load in progress, then writes the file if notes were swapped in since it was written (the index closing). */
  async flush(): Promise<void> {
    await this.inFlight?.catch(() => undefined);
    await this.closeDisk();
    const current = this.current;
    if (this.dirty && current && !current.suspect) await this.save(current.index.snapshot(), current.hashes, current.stamp);
  }
}

function* eachNote(store: VectorStore, hashes: Map<string, string>): Generator<ChunkRecord[]> {
  for (const path of hashes.keys()) yield noteChunks(store, path);
}

/** One note's chunks in line order (the store's own lookup where it has one). */
export function noteChunks(store: VectorStore, notePath: string): ChunkRecord[] {
  const chunks = store.noteChunks ? store.noteChunks(notePath) : [...store.chunks()].filter((c) => c.notePath === notePath);
  return chunks.sort((a, b) => a.startLine - b.startLine);
}

const COMPARE_SLICE = 2_500;

/**
 * Notes whose hash differs between the lexical side and the store (either way), compared in slices:
 * at 100k chunks the two maps hold tens of thousands of paths each.
 */
async function changedNotes(lexical: Map<string, string>, store: Map<string, string>): Promise<Set<string>> {
  const changed = new Set<string>();
  // A path read from the file is hashed on its first lookup: 10k of them took 8–17 ms in one go.
  let steps = 0;
  for (const [path, hash] of lexical) {
    if (store.get(path) !== hash) changed.add(path);
    if (++steps % COMPARE_SLICE === 0) await nextTurn();
  }
  // Same size and every lexical note found with its hash: the store has no other note.
  if (changed.size === 0 && store.size === lexical.size) return changed;
  for (const [path, hash] of store) {
    if (lexical.get(path) !== hash) changed.add(path);
    if (++steps % COMPARE_SLICE === 0) await nextTurn();
  }
  return changed;
}
