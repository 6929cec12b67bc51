/**
 * The link graph at the scale people have (issue 26), each figure beside a baseline measured in the
 * same run: building the graph of a 10,000-note kiln (beside parsing the notes alone, which every
 * index run already pays), one note's update (beside parsing that note), a note's backlinks,
 * `[[` completion (beside the chat composer's ranking of the same names) and related notes over an
 * index of 100,000 chunks (beside a plain hybrid search of the same index); the graph's memory.
 * Targets: build ≤ 1 s, update ≤ 5 ms, backlinks ≤ 2 ms, completion ≤ 50 ms, related ≤ 50 ms.
 * `node --import tsx test/bench/links.bench.ts` runs it alone; HEARTH_BENCH_LINK_NOTES (10000),
 * HEARTH_BENCH_RELATED_CHUNKS (100000; 0 skips the index).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EmbeddingSchema, ProcessingSchema } from '../../src/core/config/schema';
import { silentLogger } from '../../src/core/host';
import { KilnIndex } from '../../src/core/index/kilnIndex';
import { indexSemanticSearch } from '../../src/core/index/semanticSearchFn';
import { rankNotes } from '../../src/core/chat/context/noteCompletions';
import { parseNote, type ParsedNote } from '../../src/core/kiln/note';
import { LinkGraph } from '../../src/core/kiln/links/linkGraph';
import { wikiCompletions } from '../../src/core/kiln/links/linkCompletions';
import { bindKilnContext } from '../../src/core/kiln/tools/kilnTools';
import { relatedNotes } from '../../src/core/kiln/tools/linkTools';

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

const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
const check = (ms: number, limit: number) => (ms <= limit ? `≤ ${limit} ms: yes` : `≤ ${limit} ms: NO`);

export async function runLinksBench(): Promise<{ label: string; value: string }[]> {
  const lines: { label: string; value: string }[] = [];
  const texts = Array.from({ length: NOTES }, (_, i) => noteText(i));
  // Warm the parser and the graph's code paths once, as an editor that has run a while has.
  new LinkGraph().set(parseNote('warm.md', texts[0]));
  const parseOnly = time(() => texts.map((text, i) => parseNote(pathOf(i), text)));
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  // As KilnLinks reads a kiln: every note parsed, then handed over at once.
  const build = time(() => {
    const graph = new LinkGraph();
    graph.setAll(texts.map((text, i) => parseNote(pathOf(i), text)));
    return graph;
  });
  const graph = build.value;
  global.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  lines.push({ label: `graph of ${NOTES} notes built (parse + resolve)`, value: `${f(build.ms)} ms (parsing alone ${f(parseOnly.ms)} ms, ×${(build.ms / parseOnly.ms).toFixed(2)}); ${check(build.ms, 1000)}` });
  lines.push({ label: 'graph memory (heap after − before, parsed notes dropped)', value: `${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MB${global.gc ? '' : ' (run with --expose-gc for a settled figure)'}` });

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
  const completion = queries.map((q) => time(() => wikiCompletions(graph, q, 50)).ms);
  lines.push({
    label: `[[ completion at ${NOTES} notes (titles, names, aliases; median of ${queries.length} queries)`,
    value: `${f(median(completion))} ms (the composer's ranking of titles alone ${f(median(composer))} ms); ${check(median(completion), 50)}`,
  });

  if (CHUNKS > 0) lines.push(...(await relatedBench()));
  return lines;
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
    await relatedNotes(ctx, { path: pathOf(1) }, 10);
    const related: number[] = [];
    const plain: number[] = [];
    for (let k = 0; k < 20; k++) {
      const path = pathOf((k * 53) % notes);
      let t = performance.now();
      await relatedNotes(ctx, { path }, 10);
      related.push(performance.now() - t);
      t = performance.now();
      await index.search(`Note ${k} garden`, { mode: 'hybrid', limit: 10 });
      plain.push(performance.now() - t);
    }
    await index.dispose();
    return [{
      label: `related notes of a note at ${report.chunks} chunks (median of 20)`,
      value: `${f(median(related))} ms (a two-word hybrid search ${f(median(plain))} ms); ${check(median(related), 50)}`,
    }];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  runLinksBench().then((lines) => lines.forEach((l) => console.log(`${l.label}: ${l.value}`)));
}
