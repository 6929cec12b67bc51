import { embeddingTextOf, textHash } from './chunkText';
import { StatCache } from './statCache';
import { ConfinedRoot } from '../fs/confinedRoot';
import type { Logger, Progress } from '../host';
import { mapLimit, scanKiln, scanPaths, type ScanRules } from '../kiln/kilnScanner';
import type { ParsedNote } from '../kiln/note';
import { contentHash } from '../kiln/noteContent';
import { chunkNote, type Chunk } from './chunker';
import { embedAll, type BatchingOptions } from './embedders/batching';
import type { Embedder } from './embedders/embedder';
import type { ChunkRecord, VectorStore } from './store/vectorStore';

export interface IndexRunOptions {
  /** Re-embed every note even when its content hash is unchanged. */
  force?: boolean;
  /** Only look at these kiln-relative paths (saved, created, deleted or renamed in the editor). */
  paths?: readonly string[];
  signal?: AbortSignal;
  progress?: Progress;
}

/** What one indexing run did: the CLI prints it, the editor shows it in the status bar. */
export interface IndexReport {
  /** Notes in the index after the run. */
  notes: number;
  /** Chunks in the index after the run. */
  chunks: number;
  /** Notes (re-)embedded in this run, and their chunks. */
  embeddedNotes: number;
  embedded: number;
  /** Notes whose content hash was unchanged (no embedder call). */
  unchanged: number;
  /** Notes that left the index (deleted, renamed, newly excluded or too large). */
  removed: number;
  /** Files left out on purpose (too large, binary), with the reason. */
  skipped: { path: string; reason: string }[];
  /** Per-note problems (broken frontmatter, unreadable file): reported, never fatal. */
  problems: { path: string; message: string }[];
  seconds: number;
  /** The embedder the index is built with (`hearth index --json`, the editor's Check Index). */
  embedder?: { provider: string; model: string; dimensions: number };
  /** Set when the index on disk was unusable or built with another model and was rebuilt. */
  rebuilt?: string;
  /** postgres store: how its vectors are searched (hnsw_vector ≤ 2,000 dims, hnsw_halfvec ≤ 4,000, exact beyond). */
  vectorIndex?: string;
  /** Chunks whose vector a shared store already held (another member embedded the same text): not embedded again. */
  reused?: number;
  /** The run was cancelled: what was embedded before is kept (committed). */
  cancelled: boolean;
}

export interface IndexRunContext {
  kilnRoot: string;
  rules: ScanRules;
  /** The store, or its opening: the kiln is scanned while the store's files are read. */
  store: VectorStore | Promise<VectorStore>;
  /** Created lazily: a run with nothing to embed never loads a model or calls a server. */
  embedder: () => Promise<Embedder>;
  batching: BatchingOptions;
  log: Logger;
  /** Where the size + time cache lives (the store's folder); without it every note is read. */
  statCacheDir?: string;
  /** Vectors by text hash from another store (`hearth index --copy-to`): used before the embedder. */
  vectorSource?: ReadonlyMap<string, Float32Array>;
  /** Told which notes changed (their new text) and when each is written: searches meanwhile match them on words. */
  pending?: { waiting(notes: readonly { path: string; text: string }[]): void; written(path: string): void };
}

/** Commit at least this often so an interrupted first index keeps most of its work. */
const COMMIT_EVERY_MS = 5000;

/**
 * One incremental run: scan, hash, drop what left, parse + chunk + embed what changed, commit.
 * Parsing the next group of notes overlaps the embedding of the current one (the embedder runs in
 * a worker or on a server), so the pipeline adds little over the embedder's own time.
 */
export async function runIndex(ctx: IndexRunContext, options: IndexRunOptions = {}): Promise<IndexReport> {
  const started = performance.now();
  const opening = Promise.resolve(ctx.store);
  opening.catch(() => undefined);
  // Read while the kiln is scanned (a run that ends early leaves it unread).
  const statsLoading = ctx.statCacheDir ? StatCache.load(ctx.statCacheDir) : undefined;
  const { signal, progress } = options;
  const report: IndexReport = { notes: 0, chunks: 0, embeddedNotes: 0, embedded: 0, unchanged: 0, removed: 0, skipped: [], problems: [], seconds: 0, cancelled: false };
  // Every note is opened confined (DESIGN.md decision 16): paths from a watcher or a walk that
  // lead out of the kiln through a link are refused, never read into the index.
  const files = new ConfinedRoot(ctx.kilnRoot);
  const scan = options.paths ? await scanPaths(files, options.paths, ctx.rules) : await scanKiln(files, ctx.rules);
  report.skipped.push(...scan.skipped);
  const store = await opening;
  await store.refresh?.();
  const indexed = store.noteHashes();
  const present = new Set(scan.notes.map((n) => n.path));
  // A given path may be a folder (deleted or renamed in the editor): the notes under it are candidates too.
  const candidate = options.paths ? underAny(options.paths) : () => true;
  for (const path of indexed.keys()) {
    if (present.has(path) || !candidate(path)) continue;
    await store.removeNote(path);
    report.removed++;
  }

  // Read and hash what may have changed (size or time differ from when it was last hashed); keep
  // the text only of what changed.
  const stats = await statsLoading;
  const changed: { path: string; text: string; hash: string }[] = [];
  // Notes whose size and time vouch for the hash the store holds, told apart without a promise each
  // (a no-op run over 50k notes spent more on 50k awaits than on the checks).
  const toRead = scan.notes.filter((note) => {
    const known = !options.force && indexed.get(note.path);
    if (!known || stats?.hashOf(note.path, note.size, note.mtimeMs) !== known) return true;
    report.unchanged++;
    return false;
  });
  await mapLimit(toRead, 16, async (note) => {
    let text: string;
    try {
      text = (await files.readText(note.path)).text;
    } catch (error) {
      report.problems.push({ path: note.path, message: `could not read: ${(error as Error).message}` });
      return;
    }
    const hash = contentHash(text);
    stats?.record(note.path, note.size, note.mtimeMs, hash);
    if (!options.force && indexed.get(note.path) === hash) report.unchanged++;
    else changed.push({ path: note.path, text, hash });
  });
  changed.sort((a, b) => (a.path < b.path ? -1 : 1));
  ctx.pending?.waiting(changed);

  let lastCommit = performance.now();
  let dirty = report.removed > 0;
  const commitIfDue = async (force = false) => {
    if (!dirty || (!force && performance.now() - lastCommit < COMMIT_EVERY_MS)) return;
    await store.commit();
    dirty = false;
    lastCommit = performance.now();
  };
  const perNote = changed.length > 0 ? 100 / changed.length : 0;
  let done = 0;
  // The count is known before the first (slow) group is embedded; no message, so a bar keeps its text.
  if (changed.length > 0) progress?.report({ done, total: changed.length });
  const flush = async (group: { note: ParsedNote; chunks: Chunk[] }[]): Promise<void> => {
    if (group.length === 0) return;
    const texts = group.flatMap(({ note, chunks }) => chunks.map((c) => embeddingText(note, c)));
    const vectors = await embedMissing(ctx, store, texts, report, signal);
    let at = 0;
    for (const { note, chunks } of group) {
      const records = chunks.map((c, i) => chunkRecord(note, c, i));
      const meta = { frontmatter: note.frontmatter, tags: note.tags, links: note.links.map((link) => link.target) };
      await store.upsertNote(note.path, records, vectors.slice(at, at + chunks.length), note.contentHash, meta);
      ctx.pending?.written(note.path);
      at += chunks.length;
      if (chunks.length === 0) continue;
      report.embeddedNotes++;
      report.embedded += chunks.length;
    }
    dirty = true;
    done += group.length;
    progress?.report({ message: `${done} of ${changed.length} notes`, increment: group.length * perNote, done, total: changed.length });
    await commitIfDue();
  };

  // Enough chunks per group to keep every concurrent embedder call busy; batches by token budget
  // are sorted by length within a group, so a larger group leaves less padding.
  const groupTarget = Math.max(32, ctx.batching.batchSize * ctx.batching.maxConcurrent * (ctx.batching.tokenBudget ? 8 : 2));
  let group: { note: ParsedNote; chunks: Chunk[] }[] = [];
  let groupChunks = 0;
  let inFlight: Promise<void> = Promise.resolve();
  // The markdown and YAML parsers load only when a note changed (a search over an unchanged kiln needs neither).
  const { parseNote } = changed.length > 0 ? await import('../kiln/note') : { parseNote: undefined };
  try {
    for (const { path, text, hash } of changed) {
      signal?.throwIfAborted();
      const note = parseNote!(path, text);
      for (const problem of note.problems) report.problems.push({ path, message: problem.message });
      // A note whose frontmatter is broken is reported and left out until it is fixed, as binary
      // junk is: indexing it without its frontmatter would search it under the wrong title and tags.
      const brokenFrontmatter = note.problems.find((problem) => problem.code === 'note.frontmatter');
      const skipReason = note.skipped ? 'not a text file (binary content)' : brokenFrontmatter ? 'broken frontmatter (fix it and the note is indexed)' : undefined;
      const chunks = skipReason ? [] : chunkNote(note);
      if (skipReason) report.skipped.push({ path, reason: skipReason });
      else if (!splitsALine(chunks)) stats?.describe(path, hash, note.lines.slice(0, note.bodyStartLine - 1).join('\n'));
      // An empty or binary note goes through the group too (all store writes stay in flush, in
      // order): it is recorded by hash so that, unchanged, it is not read as new next time.
      group.push({ note, chunks });
      groupChunks += chunks.length;
      if (groupChunks >= groupTarget) {
        await inFlight;
        inFlight = flush(group);
        // Keep the rejection observed until it is awaited (an abort mid-embed is expected).
        inFlight.catch(() => {});
        group = [];
        groupChunks = 0;
      }
    }
    await inFlight;
    await flush(group);
  } catch (error) {
    await inFlight.catch(() => {});
    // Keep what was embedded: an interrupted or failed run resumes where it stopped next time.
    await commitIfDue(true);
    if (!signal?.aborted) throw error;
    report.cancelled = true;
  }
  await commitIfDue(true);
  // A partial run (given paths) saw only some notes: its cache would forget the others.
  if (!options.paths) await stats?.save();
  const hashes = store.noteHashes();
  report.notes = hashes.size;
  report.chunks = store.count;
  report.seconds = (performance.now() - started) / 1000;
  if (report.problems.length > 0) ctx.log.child('index').warn(`${report.problems.length} note(s) with problems: ${report.problems.slice(0, 3).map((p) => p.message).join('; ')}`);
  return report;
}

/**
 * Whether the chunker cut a line too long for one chunk (its pieces share their lines): a word may
 * then be split between two chunks, so the word index cannot vouch for the note's text.
 */
function splitsALine(chunks: readonly Chunk[]): boolean {
  return chunks.some((chunk, i) => i > 0 && chunk.startLine === chunks[i - 1].startLine);
}

/** What the embedder sees: the note title and heading path give a section its context. */
export function embeddingText(note: ParsedNote, chunk: Chunk): string {
  return embeddingTextOf(note.title, chunk.headingPath, chunk.text);
}

/**
 * Embeds what the store does not already hold: a shared store answers for text any member
 * embedded with this model, so only the rest reaches the embedder (none at all for a kiln the
 * team already indexed).
 */
async function embedMissing(ctx: IndexRunContext, store: VectorStore, texts: string[], report: IndexReport, signal?: AbortSignal): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  if (!store.knownVectors && !ctx.vectorSource) return embedAll(await ctx.embedder(), texts, ctx.batching, signal);
  const hashes = texts.map(textHash);
  const known = store.knownVectors ? await store.knownVectors([...new Set(hashes)]) : new Map<string, Float32Array>();
  for (const hash of hashes) {
    const copied = known.has(hash) ? undefined : ctx.vectorSource?.get(hash);
    if (copied) known.set(hash, copied);
  }
  const missing = new Map<string, string>();
  hashes.forEach((hash, i) => {
    if (!known.has(hash)) missing.set(hash, texts[i]);
  });
  if (missing.size > 0) {
    const fresh = await embedAll(await ctx.embedder(), [...missing.values()], ctx.batching, signal);
    [...missing.keys()].forEach((hash, i) => known.set(hash, fresh[i]));
  }
  report.reused = (report.reused ?? 0) + hashes.length - missing.size;
  return hashes.map((hash) => known.get(hash)!);
}

function underAny(paths: readonly string[]): (path: string) => boolean {
  const exact = new Set(paths);
  const folders = paths.map((p) => (p.endsWith('/') ? p : `${p}/`));
  return (path) => exact.has(path) || folders.some((f) => path.startsWith(f));
}

function chunkRecord(note: ParsedNote, chunk: Chunk, ordinal: number): ChunkRecord {
  return {
    id: `${note.path}#${ordinal}`,
    notePath: note.path,
    title: note.title,
    headingPath: chunk.headingPath,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    text: chunk.text,
    contentHash: note.contentHash,
    textHash: textHash(embeddingText(note, chunk)),
  };
}
