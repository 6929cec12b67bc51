/**
 * The link graph at the scale people have (issue 26), each figure beside a baseline measured in the
 * same run: building the graph of a 10,000-note kiln as the editor does (from disk, in slices; beside
 * the walk and confined reads alone, with the longest event-loop block beside the reads' own), the
 * graph from parsed notes in one go (beside parsing them), one note's update (beside parsing that
 * note), a note's backlinks, `[[` completion (beside the chat composer's ranking of the same names)
 * and related notes over an index of 100,000 chunks (beside the note's title and opening as a hybrid
 * query, the way before centroids, and a plain two-word search); the graph's and centroids' memory.
 * Targets: build ≤ 1 s, update ≤ 5 ms, backlinks ≤ 2 ms, completion ≤ 50 ms, related ≤ 50 ms, no
 * event-loop block over 20 ms. `npm run bench -- links` or `node --import tsx
 * test/bench/links.bench.ts` runs it alone; HEARTH_BENCH_LINK_NOTES (10000),
 * HEARTH_BENCH_RELATED_CHUNKS (100000; 0 skips the index).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ConfinedRoot } from '../../src/core/fs/confinedRoot';
import { EmbeddingSchema, ProcessingSchema } from '../../src/core/config/schema';
import { silentLogger } from '../../src/core/host';
import { KilnIndex } from '../../src/core/index/kilnIndex';
import { indexSemanticSearch } from '../../src/core/index/semanticSearchFn';
import { rankNotes } from '../../src/core/kiln/noteRanking';
import { parseNote, type ParsedNote } from '../../src/core/kiln/note';
import { KilnLinks } from '../../src/core/kiln/links/kilnLinks';
import { LinkGraph } from '../../src/core/kiln/links/linkGraph';
import { mapLimit, scanKiln } from '../../src/core/kiln/kilnScanner';
import { warmWikiCompletions, wikiCompletions } from '../../src/core/kiln/links/linkCompletions';
import { bindKilnContext } from '../../src/core/kiln/tools/kilnTools';
import { relatedNotes } from '../../src/core/kiln/tools/linkTools';
import { centroidsOf } from '../../src/core/kiln/links/noteCentroids';

const NOTES = Number(process.env.HEARTH_BENCH_LINK_NOTES ?? 10_000);
const CHUNKS = Number(process.env.HEARTH_BENCH_RELATED_CHUNKS ?? 100_000);
const WORDS = ['garden', 'tomato', 'basil', 'water', 'morning', 'bread', 'compost', 'soil', 'seed', 'harvest', 'kitchen', 'oven', 'plan', 'meeting', 'rome', 'coffee'];

/** A kiln shaped like a real one: folders, frontmatter with aliases, headings, ~12 links a note (some to headings, some missing, some names shared). */
function noteText(i: number, sections = 2): string {
  const link = (k: number) => `[[Note ${(i * 7 + k * 131) % NOTES}${k % 4 === 0 ? '#Section 1' : ''}]]`;
  const words = (k: number) => Array.from({ length: 40 }, (_, w) => WORDS[(i + k + w * 3) % WORDS.length]).join(' ');
  const body = Array.from({ length: sections }, (_, s) => `## Section ${s}\n${words(s)} ${link(s * 3)} ${link(s * 3 + 1)}, ${link(s * 3 + 2)} and [[Missing ${i % 50}]].\n`).join('\n');
  return `---\naliases: [Alias ${i}]\ntags: [t${i % 7}]\n---\n# Note ${i}\n\n${body}`;
}

const pathOf = (i: number) => `folder${i % 40}/sub${i % 3}/Note ${i}.md`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time<T>(work: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = work();
  return { ms: performance.now() - t, value };
}

/** A full collection before each heap reading, with or without --expose-gc (`npm run bench` passes none). */
function collect(): void {
  if (!global.gc) setFlagsFromString('--expose-gc');
  (global.gc ?? (runInNewContext('gc') as () => void))();
}

const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
const check = (ms: number, limit: number) => (ms <= limit ? `≤ ${limit} ms: yes` : `≤ ${limit} ms: NO`);

export async function runLinksBench(): Promise<{ label: string; value: string }[]> {
  const lines: { label: string; value: string }[] = [];
  const texts = Array.from({ length: NOTES }, (_, i) => noteText(i));
  // Warm the parser and the graph's code paths once, as an editor that has run a while has.
  new LinkGraph().set(parseNote('warm.md', texts[0]));
  lines.push(...(await diskBuildBench(texts)));
  const parseOnly = time(() => texts.map((text, i) => parseNote(pathOf(i), text)).length).ms;
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  let parsed: ParsedNote[] | undefined = texts.map((text, i) => parseNote(pathOf(i), text));
  // The parses handed over at once, as the CLI does (the editor's slices are measured above).
  const graph = new LinkGraph();
  const buildMs = time(() => graph.setAll(parsed!)).ms;
  parsed = undefined;
  collect();
  const heapAfter = process.memoryUsage().heapUsed;
  lines.push({ label: `graph of ${NOTES} notes from their parses in one go (resolve only; the first build held the thread this long before its slices)`, value: `${f(buildMs)} ms (parsing them ${f(parseOnly)} ms, ×${(buildMs / parseOnly).toFixed(2)} of it)` });
  lines.push({ label: 'graph memory (heap after − before, parsed notes dropped)', value: `${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MB` });

  const updates: number[] = [];
  const parses: number[] = [];
  for (let k = 0; k < 200; k++) {
    const i = (k * 37) % NOTES;
    const text = noteText(i).replace('## Section 1', `## Section 1 (edit ${k})`);
    const parsed = time(() => parseNote(pathOf(i), text));
    parses.push(parsed.ms);
    updates.push(time(() => graph.set(parseNote(pathOf(i), text))).ms);
  }
  lines.push({ label: 'one note changed: graph updated (median of 200)', value: `${f(median(updates))} ms (parsing it alone ${f(median(parses))} ms); ${check(median(updates), 5)}` });

  const backlinks = Array.from({ length: 200 }, (_, k) => time(() => graph.backlinks(pathOf((k * 131) % NOTES))));
  lines.push({ label: `backlinks of a note (median of 200; ~${backlinks[0].value.length} links)`, value: `${f(median(backlinks.map((b) => b.ms)))} ms; ${check(median(backlinks.map((b) => b.ms)), 2)}` });

  const names = [...graph.allNotes()].map((n) => ({ path: n.path, title: n.title, mtime: 0 }));
  const queries = ['no', 'note 12', 'alias 9', 'sec', 'n'];
  const composer = queries.map((q) => time(() => rankNotes(names, q)).ms);
  // The first `[[` ever lists (and folds) every name; the editor lists them ahead, in slices, once
  // the graph is read (warmWikiCompletions). The first `[[` after a change (a note typed into)
  // lists them again from the unchanged notes' entries; typing on re-ranks the same list.
  const firstEver = time(() => wikiCompletions(graph, 'no', 50)).ms;
  const warmed = new LinkGraph();
  warmed.setAll(texts.map((text, i) => parseNote(pathOf(i), text)));
  const warm = await measured(() => warmWikiCompletions(warmed));
  const afterWarm = time(() => wikiCompletions(warmed, 'no', 50)).ms;
  const firsts = [1, 2, 3, 4, 5].map((i) => {
    graph.set(parseNote(pathOf(i), noteText(i).replace(`# Note ${i}`, `# Note ${i} edited`)));
    return time(() => wikiCompletions(graph, 'no', 50)).ms;
  });
  const first = median(firsts);
  const completion = queries.map((q) => time(() => wikiCompletions(graph, q, 50)).ms);
  lines.push({
    label: `[[ completion at ${NOTES} notes (titles, names, aliases; median of ${queries.length} queries)`,
    value: `${f(median(completion))} ms, the first after a change ${f(first)} ms (median of 5 changes; the composer's ranking of titles alone ${f(median(composer))} ms); ${check(Math.max(first, median(completion)), 50)}`,
  });
  lines.push({
    label: '[[ completion, the first ask: names listed ahead in slices, or on that ask',
    value: `${f(afterWarm)} ms after listing them ahead (${f(warm.ms)} ms, longest event-loop block ${f(warm.maxBlockMs)} ms, ${f(warm.maxBlockCpuMs)} ms CPU); listed on the ask ${f(firstEver)} ms`,
  });

  if (CHUNKS > 0) lines.push(...(await relatedBench()));
  return lines;
}

/**
 * The graph built as the editor builds it (KilnLinks.refresh: the kiln walked, every note read
 * confined and parsed, the graph filled in slices), beside the same confined reads alone, with the
 * longest the event loop was held meanwhile (monitorEventLoopDelay) and the CPU time spent.
 */
async function diskBuildBench(texts: readonly string[]): Promise<{ label: string; value: string }[]> {
  const root = mkdtempSync(join(tmpdir(), 'hearth-bench-graph-'));
  try {
    texts.forEach((text, i) => {
      const path = join(root, pathOf(i));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    });
    const files = new ConfinedRoot(root);
    const rules = { exclude: [], max_file_size_kb: 1024 };
    // The same files read once before, so both figures find them in the page cache.
    const scan = await scanKiln(files, rules);
    await mapLimit(scan.notes, 16, (note) => files.readText(note.path));
    const reads = await measured(async () => {
      const listed = await scanKiln(files, rules);
      await mapLimit(listed.notes, 16, (note) => files.readText(note.path));
    });
    const build = await measured(() => new KilnLinks(files, rules).refresh());
    return [
      {
        label: `graph of ${NOTES} notes built from disk as the editor builds it (walk, confined reads, parse, resolve)`,
        value: `${f(build.ms)} ms, ${f(build.cpuMs)} ms CPU (the walk and confined reads alone ${f(reads.ms)} ms, ${f(reads.cpuMs)} ms CPU; the graph's own CPU ${f(build.cpuMs - reads.cpuMs)} ms); ${check(build.ms, 1000)}`,
      },
      {
        label: 'longest event-loop block while it builds (monitorEventLoopDelay; the most CPU spent within one block)',
        value: `${f(build.maxBlockMs)} ms, ${f(build.maxBlockCpuMs)} ms CPU (during the reads alone ${f(reads.maxBlockMs)} ms, ${f(reads.maxBlockCpuMs)} ms CPU); ${check(build.maxBlockCpuMs, 20)} (CPU, load ${loadavg()[0].toFixed(1)})`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Wall and CPU time of `work`, the longest the event loop was blocked while it ran
 * (monitorEventLoopDelay), and the most CPU the process spent within one such block: on a loaded
 * machine a block is mostly the process waiting for a core, and only its CPU is the work's own.
 */
async function measured(work: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number; maxBlockMs: number; maxBlockCpuMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let maxBlockCpuMs = 0;
  let tick = { at: performance.now(), cpu: process.cpuUsage() };
  const ticker = setInterval(() => {
    const now = { at: performance.now(), cpu: process.cpuUsage() };
    const spent = (now.cpu.user - tick.cpu.user + now.cpu.system - tick.cpu.system) / 1000;
    if (now.at - tick.at > 2) maxBlockCpuMs = Math.max(maxBlockCpuMs, spent);
    tick = now;
  }, 1);
  const cpu = process.cpuUsage();
  const t = performance.now();
  await work();
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  clearInterval(ticker);
  delay.disable();
  // The histogram records how late each 1 ms tick came: the longest block is its maximum, less the tick.
  return { ms, cpuMs: (used.user + used.system) / 1000, maxBlockMs: Math.max(0, delay.max / 1e6 - 1), maxBlockCpuMs };
}

/** Related notes over a flat index of CHUNKS chunks (a stand-in embedder: this measures the ranking, not a model). */
async function relatedBench(): Promise<{ label: string; value: string }[]> {
  const notes = Math.ceil(CHUNKS / 10);
  const root = mkdtempSync(join(tmpdir(), 'hearth-bench-links-'));
  try {
    for (let i = 0; i < notes; i++) {
      const path = join(root, pathOf(i));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, noteText(i, 10));
    }
    const index = new KilnIndex({ kilnRoot: root, embedding: EmbeddingSchema.parse({}), processing: ProcessingSchema.parse({}), embedderDeps: { env: {} }, log: silentLogger });
    const dim = 32;
    const vector = (text: string) => {
      const v = new Float32Array(dim);
      for (let i = 0; i < text.length; i++) v[text.charCodeAt(i) % dim] += 1;
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    };
    index.setup.create = async () => ({ providerType: index.setup.providerType, model: index.setup.model, embed: async (batch: string[]) => batch.map(vector) });
    const report = await index.update();
    const search = indexSemanticSearch(() => index);
    const ctx = bindKilnContext({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, semanticSearch: search });
    // The graph and the store as the editor has them open; then the first ask reads every note's
    // centroid (its chunks' vectors, from the index) once.
    await ctx.links.current();
    await index.counts();
    const first = await measured(() => relatedNotes(ctx, { path: pathOf(1) }, 10));
    const related: number[] = [];
    const opening: number[] = [];
    const plain: number[] = [];
    for (let k = 0; k < 20; k++) {
      const i = (k * 53) % notes;
      let t = performance.now();
      await relatedNotes(ctx, { path: pathOf(i) }, 10);
      related.push(performance.now() - t);
      // Before #26's centroids: the note's title and opening as a hybrid query (the way text still goes).
      const query = `Note ${i}\n${noteText(i, 10)}`.slice(0, 800);
      t = performance.now();
      await search(query, 11);
      opening.push(performance.now() - t);
      t = performance.now();
      await index.search(`Note ${k} garden`, { mode: 'hybrid', limit: 10 });
      plain.push(performance.now() - t);
    }
    // One note changed and indexed again: the next answer reads that note's vectors alone.
    writeFileSync(join(root, pathOf(2)), noteText(2, 10).replace('## Section 3', '## Section 3 changed\nrome coffee rome coffee'));
    await index.update();
    const afterRun = await measured(() => relatedNotes(ctx, { path: pathOf(2) }, 10));
    const bytes = centroidsOf(index).bytes;
    await index.dispose();
    return [
      {
        label: `related notes of a note at ${report.chunks} chunks (median of 20)`,
        value: `${f(median(related))} ms (its title and opening as a hybrid query, as before ${f(median(opening))} ms; a two-word hybrid search ${f(median(plain))} ms); ${check(median(related), 50)}`,
      },
      {
        label: `related notes: the first ask (centroids of ${notes} notes read), the first after a run changed one note`,
        value: `${f(first.ms)} ms (longest event-loop block ${f(first.maxBlockMs)} ms, ${f(first.maxBlockCpuMs)} ms CPU); ${f(afterRun.ms)} ms; centroids ${(bytes / 1024 / 1024).toFixed(1)} MB`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  runLinksBench().then((lines) => lines.forEach((l) => console.log(`${l.label}: ${l.value}`)));
}
