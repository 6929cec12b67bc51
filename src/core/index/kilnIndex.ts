import type { EmbeddingConfig, ProcessingConfig } from '../config/schema';
import { stat } from 'node:fs/promises';
import { HearthError, isHearthError } from '../errors';
import type { Logger, Progress } from '../host';
import { groupLines, MAX_SECTIONS } from './search/noteRanking';
import { lexicalOnlySearch, rankedSearch, type RankedSearchSides, type SearchRequest } from './search/rankedSearch';
import { PendingNotes } from './search/pendingNotes';
import type { QueryEmbeddingWorker } from './embedders/queryEmbedding';
import { embedderSetup, type EmbedderDeps, type EmbedderSetup } from './embedders/createEmbedder';
import type { Embedder } from './embedders/embedder';
import { runIndex, type IndexReport, type IndexRunOptions } from './indexer';
import { withoutZeroRelevance, type SearchResult } from './search/searchResult';
import { readStoredHeader } from './storedHeader';
import { vectorsByTextHash } from './copyVectors';
import { storeDir } from './store/openStore';
import { openIndexStore } from './indexStoreOpening';
import type { ConfirmKilnClaim } from './store/postgresKilnClaim';
import type { ChunkRecord, StoreKind, VectorStore } from './store/vectorStore';
import { StoreBm25 } from './words/storeBm25';
import { scanKiln } from '../kiln/kilnScanner';
import { answersOnWords, wordsOnlySearch } from './search/wordsOnlySearch';

export type { SearchRequest } from './search/rankedSearch';

/** How long searches answer on words alone before asking the embedding model again. */
const WORDS_ONLY_RETRY_MS = 30_000;

export interface KilnIndexOptions {
  kilnRoot: string;
  embedding: EmbeddingConfig;
  processing: ProcessingConfig;
  embedderDeps: EmbedderDeps;
  log: Logger;
  /** `hearth index --copy-to`: vectors by text hash from the other store and their dimension (no probe). */
  copySource?: { vectors: ReadonlyMap<string, Float32Array>; dim: number };
  /**
   * Where embedQuery asks a web-service embedder while none was made in this thread (the CLI
   * starts it first thing: a cold process then loads the provider's SDK on another core).
   */
  queryWorker?: QueryEmbeddingWorker;
  /** The team store: asks before this kiln replaces the rows of another folder that claimed its kiln id (the editor); else a warning. */
  confirmKilnClaim?: ConfirmKilnClaim;
}

/** The kiln folder is missing (a kiln_path typo, an unmounted drive): nothing is indexed or created. */
export class KilnMissingError extends HearthError {
  constructor(kilnRoot: string) {
    super('index.kiln_missing', `The kiln folder ${kilnRoot} does not exist; check kiln_path (or HEARTH_KILN_PATH). Nothing was indexed.`);
  }
}

/** Asked of an index after dispose (a search still in flight when the editor replaced it): nothing is reopened. */
export class IndexDisposedError extends HearthError {
  constructor() {
    super('index.disposed', 'This index was closed (the kiln or its settings changed); search again.');
  }
}

/**
 * The kiln's index as one service: the store chosen by `[processing] store` under
 * `<kiln>/.hearth/index/`, the embedder from `[embedding]` (created on first need and kept), and
 * incremental runs and searches over them. Runs are serialized; searches read the store directly.
 * The editor and the CLI each own one per kiln and dispose it.
 */
export class KilnIndex {
  readonly setup: EmbedderSetup;
  readonly kind: StoreKind;
  readonly dir: string;
  private opened?: Promise<VectorStore>;
  private embedder?: Promise<Embedder>;
  private embedderAnswered = false;
  private rebuiltReason?: string;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set by dispose: nothing is opened again afterwards. */
  private disposed = false;
  private version = 0;
  /** Counts starts and ends of runs and clears: a BM25 build that saw one read a moving store. */
  private mutations = 0;
  private writing = 0;
  private readonly lexicalSide: StoreBm25;
  /** A run's changed notes not yet embedded: searches meanwhile find them by their new words. */
  private readonly pending = new PendingNotes();
  /** The counters above, for the lexical side and a search to tell whether notes changed under them. */
  private readonly runState = () => ({ version: this.version, mutations: this.mutations, writing: this.writing });
  private runProgress?: Progress;
  /** The whole-kiln run's last count (see `indexing`). */
  private building?: { done: number; total: number };
  /** Set while searches answer on words because the embedding model could not (see `wordsOnly`). */
  private wordsOnlySince?: { at: number; why: string };

  /** Throws EmbeddingError (`embedding.config`) when `[embedding]` cannot work at all. */
  constructor(private readonly options: KilnIndexOptions) {
    // A model fetched on first use reports into the progress of the run that needed it (the CLI's
    // bar, the editor's notification), else into the host's own.
    const downloads: Progress = { report: (update) => (this.runProgress ?? options.embedderDeps.progress)?.report({ message: update.message }) };
    this.setup = embedderSetup(options.embedding, { workers: options.processing.parallel_workers, ...options.embedderDeps, progress: downloads });
    this.kind = options.processing.store;
    this.dir = storeDir(options.kilnRoot, this.kind);
    this.lexicalSide = new StoreBm25(this.dir, options.log.child('index'), this.runState);
  }

  get kilnRoot(): string {
    return this.options.kilnRoot;
  }

  /**
   * While a whole-kiln run embeds notes: how many of those it must embed are done. Searches then
   * answer from the notes indexed so far (agents are told; the editor's pick shows its own count).
   */
  get indexing(): { done: number; total: number } | undefined {
    const building = this.building;
    return building && building.done < building.total ? { ...building } : undefined;
  }

  /**
   * Whether the embedding model has answered in this process: a cold CLI has not loaded it yet, and
   * a run that is loading it (a local model loads on its first embed, which may mean a download)
   * has not either, so chat's auto context answers from the words instead of waiting for it.
   */
  get embedderLoaded(): boolean {
    return this.embedderAnswered;
  }

  /** Whether an index was ever built here (without opening it or loading a model). */
  async exists(): Promise<boolean> {
    // A shared database is asked only when searched or indexed (it may be down; that is said then).
    if (this.kind === 'postgres') return true;
    return (await readStoredHeader(this.kind, this.dir)) !== undefined;
  }

  /** Notes and chunks in the index (opens it). */
  async counts(): Promise<{ notes: number; chunks: number }> {
    const store = await this.store();
    return { notes: store.noteHashes().size, chunks: store.count };
  }

  /** Runs and clears started and ended, and runs writing now: what a cache of the index's notes compares (NoteVectorSource). */
  noteChanges(): { mutations: number; writing: number } {
    return { mutations: this.mutations, writing: this.writing };
  }

  /** Every indexed note's content hash (opens the index). */
  async noteHashes(): Promise<Map<string, string>> {
    return (await this.store()).noteHashes();
  }

  /** A note's chunks and their vectors, where the store hands them out (the flat store); related notes average them. */
  async noteVectors(path: string): Promise<{ chunks: ChunkRecord[]; vectors: Float32Array[] } | undefined> {
    const store = (await this.store()) as VectorStore & { noteVectors?(notePath: string): Float32Array[] };
    if (!store.noteVectors || !store.noteChunks) return undefined;
    return { chunks: store.noteChunks(path), vectors: store.noteVectors(path) };
  }

  /** The length of the vectors the index holds (opens it): Check Index reports it with the model. */
  async dimensions(): Promise<number> {
    return (await this.store()).header.dim;
  }

  /**
   * Loads what the first search needs — the store and, where words are ranked in process, the
   * lexical side (its file read and checked in slices) — so a search soon after opening answers at
   * once. The editor calls it after each full run; a search arriving meanwhile waits for the same load.
   */
  async warmSearch(): Promise<void> {
    const store = await this.store();
    if (!store.lexicalSearch) await this.lexicalSide.warm(store);
  }

  /** Notes of the kiln an index run would take in (a full rebuild embeds this many); reads no note. */
  async kilnNoteCount(): Promise<number> {
    return (await scanKiln(this.options.kilnRoot, this.options.processing)).notes.length;
  }

  /** One incremental run (or a full one with `force`); runs queue behind each other. */
  update(options: IndexRunOptions = {}): Promise<IndexReport> {
    return this.serialized(async () => {
      const started = performance.now();
      // Checked before the store opens: opening it would make <kiln>/.hearth/index inside a typo.
      const isFolder = await stat(this.options.kilnRoot).then((info) => info.isDirectory(), () => false);
      if (!isFolder) throw new KilnMissingError(this.options.kilnRoot);
      // A whole-kiln run's count of notes embedded: searches meanwhile answer from part of the kiln (`indexing`).
      const progress: Progress | undefined =
        options.paths === undefined
          ? {
              report: (update) => {
                if (update.done !== undefined && update.total !== undefined) this.building = { done: update.done, total: update.total };
                options.progress?.report(update);
              },
            }
          : options.progress;
      const run = async () =>
        runIndex(
          {
            kilnRoot: this.options.kilnRoot, rules: this.options.processing, store: this.store(), embedder: () => this.getEmbedder(),
            batching: { ...this.setup.batching, log: this.options.log }, log: this.options.log, statCacheDir: this.dir, vectorSource: this.options.copySource?.vectors,
            pending: this.pending,
          },
          { ...options, progress },
        );
      let report: IndexReport;
      this.mutations++;
      this.writing++;
      this.runProgress = options.progress;
      try {
        report = await run();
      } catch (error) {
        // Another process (the CLI beside the editor) committed first: reload its state and redo.
        if (!isHearthError(error) || error.code !== 'index.changed_on_disk') throw error;
        this.options.log.child('index').info('changed by another process; reloading it and running again');
        await this.reopen();
        report = await run();
      } finally {
        this.pending.clear();
        this.runProgress = undefined;
        this.building = undefined;
        this.version++;
        this.mutations++;
        this.writing--;
      }
      const opened = await this.opened?.catch(() => undefined);
      if (opened && !report.cancelled) await this.lexicalSide.follow(opened, report.embeddedNotes > 0 || report.removed > 0);
      if (opened && 'vectorIndex' in opened) report.vectorIndex = String(opened.vectorIndex);
      if (opened) report.embedder = { provider: this.setup.providerType, model: this.setup.model, dimensions: opened.header.dim };
      // Opening the index and loading the model count too: that is the time the user waits.
      report.seconds = (performance.now() - started) / 1000;
      if (this.rebuiltReason) report.rebuilt = this.rebuiltReason;
      this.rebuiltReason = undefined;
      return report;
    });
  }

  /**
   * `hearth index --copy-to KIND`: brings the store of that kind up to date with this one's
   * vectors, matched by text hash, so moving a kiln to the team database (or back) embeds only
   * what this store did not have.
   */
  async copyTo(kind: StoreKind, options: IndexRunOptions = {}): Promise<IndexReport & { from: StoreKind; to: StoreKind; copied: number; reembedded: number }> {
    const source = await this.store();
    const vectors = await vectorsByTextHash(source);
    const target = new KilnIndex({ ...this.options, processing: { ...this.options.processing, store: kind }, copySource: { vectors, dim: source.header.dim } });
    try {
      const report = await target.update(options);
      return { ...report, from: this.kind, to: kind, copied: vectors.size, reembedded: report.embedded - (report.reused ?? 0) };
    } finally {
      await target.dispose();
    }
  }

  /** Empties the index (on disk too); the next update embeds every note again. */
  clear(): Promise<void> {
    return this.serialized(async () => {
      this.mutations++;
      await (await this.store()).clear();
      this.version++;
      this.mutations++;
    });
  }

  /**
   * One result per note (its best section, the others in `sections`), or per chunk with `chunks`.
   * Scores are relevances in 0–1 in every mode. An empty query finds nothing. While the embedding
   * model cannot answer (not fetched and offline, its runner down), a hybrid or semantic search
   * answers on the words of the notes on disk instead, and `wordsOnly` says why.
   */
  async search(query: string, request: SearchRequest = {}): Promise<SearchResult[]> {
    const mode = request.mode ?? 'hybrid';
    const words = () => wordsOnlySearch(this.options.kilnRoot, this.options.processing, query, request.limit ?? 10, request.snippetChars, request.signal);
    if (mode === 'text' || mode === 'property' || request.chunks || !query.trim()) return this.searchIndexed(query, request);
    // The model is asked again after a while, not on every keystroke of a search box.
    if (this.wordsOnlySince && Date.now() - this.wordsOnlySince.at < WORDS_ONLY_RETRY_MS) return words();
    try {
      const results = await this.searchIndexed(query, request);
      this.wordsOnlySince = undefined;
      return results;
    } catch (error) {
      if (!answersOnWords(error)) throw error;
      this.wordsOnlySince = { at: Date.now(), why: (error as Error).message };
      this.options.log.child('index').warn(`${(error as Error).message} Searching on words only meanwhile.`);
      return words();
    }
  }

  /**
   * Why searches answer on words only (the embedding model's error), or undefined while the model
   * answers: hosts label such results "words only".
   */
  get wordsOnly(): string | undefined {
    return this.wordsOnlySince?.why;
  }

  private async searchIndexed(query: string, request: SearchRequest): Promise<SearchResult[]> {
    const mode = request.mode ?? 'hybrid';
    const limit = request.limit ?? 10;
    if (!query.trim()) return [];
    // The team database answers every mode itself (full-text, property, HNSW); the flat stores
    // search the notes on disk for text and property, and their own BM25 for the lexical side.
    if (mode === 'text' || mode === 'property') {
      const found = await this.inOwnStore(mode, async (store) => (await import('./search/storeSearch')).searchInStore(store, mode, query, { limit, chunks: request.chunks, snippetChars: request.snippetChars }));
      if (found) return found;
    }
    if (mode === 'text') {
      // Lines in path order; grouped here into notes (a note's first matching line is its hit).
      const lineLimit = request.chunks ? limit : Math.min(limit * (MAX_SECTIONS + 1), 5000);
      const { textModeSearch } = await import('./search/diskSearch');
      const lines = await textModeSearch(this.options.kilnRoot, this.options.processing, query, lineLimit, request.signal, this.dir);
      return request.chunks ? lines : groupLines(lines, limit);
    }
    // The notes on disk (the markdown and YAML parsers load for these modes only).
    if (mode === 'property') return (await import('./search/diskSearch')).propertyModeSearch(this.options.kilnRoot, this.options.processing, query, limit, request.signal);
    const sides: RankedSearchSides = { store: await this.store(), lexicalSide: this.lexicalSide, changes: this.runState };
    let ranked: SearchResult[];
    if (mode === 'hybrid' && request.lexicalOnly) ranked = await lexicalOnlySearch(sides, query, { ...request, limit });
    else {
      const embedding = request.queryVector ?? this.embedQuery(query, request.signal);
      embedding.catch(() => undefined);
      ranked = await rankedSearch(sides, query, mode, embedding, { ...request, limit });
    }
    // Rows that round to 0 % relevance only pad the list; notes a run is updating match on their new words.
    const merged = request.chunks ? ranked : this.pending.merge(ranked, query, limit, request.snippetChars);
    return withoutZeroRelevance(merged);
  }

  /**
   * The embedding of a query for search's `queryVector`. A host that brings the index up to date
   * before it searches (`hearth search`) starts this first: the request to a hosted embedder (tens
   * to hundreds of milliseconds) then runs while the notes are checked and the store loads.
   */
  async embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const { remote } = this.setup;
    const worker = this.options.queryWorker;
    if (worker && !worker.spent && remote && !this.embedder) {
      if (this.disposed) throw new IndexDisposedError();
      try {
        return await worker.embed(remote, query, this.options.embedderDeps.redactor, signal);
      } catch (error) {
        // The worker itself failed (it could not start, it crashed): this thread asks the embedder instead.
        if (!isHearthError(error) || error.code !== 'embedding.worker_failed') throw error;
        this.options.log.child('index').warn(`${error.message} The query is embedded without it.`);
      }
    }
    const [vector] = await (await this.getEmbedder()).embed([query], signal);
    return vector;
  }

  /**
   * A text or property search the store answers itself (the team database), or undefined where
   * the notes on disk answer: the flat stores, and the database while it is unreachable (the
   * editor keeps working; a warning says so).
   */
  async inOwnStore<T>(mode: 'text' | 'property', work: (store: VectorStore) => Promise<T | undefined>): Promise<T | undefined> {
    if (this.kind !== 'postgres') return undefined;
    try {
      return await work(await this.store());
    } catch (error) {
      if (!isHearthError(error) || error.code !== 'index.unreachable') throw error;
      this.options.log.child('index').warn(`${error.message} Meanwhile ${mode} search reads the notes on disk.`);
      return undefined;
    }
  }

  /** Closes the store and ends the embedder (its worker), waiting for a run in progress. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.queue.catch(() => {});
    if (this.opened) await this.lexicalSide.flush();
    const [store, embedder] = [this.opened, this.embedder];
    this.opened = this.embedder = undefined;
    await (await store?.catch(() => undefined))?.dispose();
    await (await embedder?.catch(() => undefined))?.dispose?.();
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.catch(() => {}).then(work);
    this.queue = next;
    return next;
  }

  private getEmbedder(): Promise<Embedder> {
    if (this.disposed && !this.embedder) return Promise.reject(new IndexDisposedError());
    return (this.embedder ??= this.setup.create().then(
      (embedder) => this.notingAnswers(embedder),
      (error) => {
        this.embedder = undefined;
        throw error;
      },
    ));
  }

  /** The embedder, noting its first answer (see embedderLoaded). */
  private notingAnswers(embedder: Embedder): Embedder {
    return {
      providerType: embedder.providerType,
      model: embedder.model,
      embed: async (texts, signal) => {
        const vectors = await embedder.embed(texts, signal);
        this.embedderAnswered = true;
        return vectors;
      },
      ...(embedder.dispose ? { dispose: () => embedder.dispose!() } : {}),
    };
  }

  private store(): Promise<VectorStore> {
    // Closed: a late caller must not reopen the store (a postgres pool, file descriptors) for nobody to close.
    if (this.disposed && !this.opened) return Promise.reject(new IndexDisposedError());
    return (this.opened ??= this.open().catch((error) => {
      this.opened = undefined;
      throw error;
    }));
  }

  private async reopen(): Promise<void> {
    const old = this.opened;
    this.opened = undefined;
    await (await old?.catch(() => undefined))?.dispose();
  }

  private async open(): Promise<VectorStore> {
    // The word index's file is read while the store's files are.
    if (this.kind !== 'postgres') this.lexicalSide.prefetch();
    const { store, rebuilt } = await openIndexStore(this.kind, this.dir, this.setup, this.options, () => this.probeDimension());
    if (rebuilt) {
      this.rebuiltReason = rebuilt.message;
      this.options.log.child('index').warn(`rebuilding every note: ${rebuilt.message}`);
    }
    return store;
  }

  private async probeDimension(): Promise<number> {
    const [vector] = await (await this.getEmbedder()).embed(['dimension']);
    return vector.length;
  }

}
