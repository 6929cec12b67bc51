// `npm run eval`: search quality on a kiln with known answers. Indexes the kiln (a copy in a temp
// folder, so nothing is written beside it) through the real KilnIndex, embedding through the real
// OpenAI-compatible wire format against a local hashed bag-of-words server, then runs every query
// in hybrid, semantic and text mode and prints top-1, recall@10, MRR and the distinct notes per top
// 10. Without arguments: the dev set (test/eval/dev.json) — the one to tune on. `--heldout` adds
// the held-out set (never tune on it).
//   npm run eval -- [--kiln DIR --queries FILE] [--heldout] [--modes hybrid,semantic,text] [--json] [--misses] [--embedder static]
// Without `--embedder`, a second run follows the first: `static` embeds through local_cpu's default code path: the model2vec static
// embedder (tokenizer, table, pooling, in its worker) on a table generated from the kiln's words
// with random weights. It proves the plumbing end to end; the quality of real weights
// (minishlab/potion-base-8M) cannot be measured here (no weights can be downloaded).
// With HEARTH_EVAL_DATABASE_URL=postgres://… (e.g. a pglite-server) the index is the postgres store.
// `--misses` lists every query whose note is not first (on stderr), for tuning on the dev set.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddingSchema, ProcessingSchema } from '../../src/core/config/schema';
import { silentLogger } from '../../src/core/host';
import { KilnIndex } from '../../src/core/index/kilnIndex';
import type { SearchMode } from '../../src/core/index/search/searchResult';
import { generateStaticModel } from '../fixtures/static-model/generate.mjs';
import { startHashedEmbedServer } from './hashedEmbedServer';

/** The search modes, plus `lexical`: hybrid with the vector side weighted 0 (BM25F alone). */
type EvalMode = SearchMode | 'lexical';

interface Query {
  query: string;
  note: string;
}

export interface Metrics {
  mode: string;
  queries: number;
  top1: number;
  recall10: number;
  mrr: number;
  distinct: number;
  msPerQuery: number;
}

const here = import.meta.dirname;

export async function evaluate(
  kilnDir: string,
  sets: { name: string; queries: Query[] }[],
  modes: EvalMode[],
  showMisses = false,
  embedder: 'hashed' | 'static' = 'hashed',
): Promise<{ set: string; metrics: Metrics[] }[]> {
  const copy = mkdtempSync(join(tmpdir(), 'hearth-eval-'));
  cpSync(kilnDir, copy, { recursive: true, filter: (src) => !src.includes('/.hearth') });
  const server = await startHashedEmbedServer();
  const index = new KilnIndex({
    kilnRoot: copy,
    embedding: EmbeddingSchema.parse(embedder === 'static' ? { model: staticTable(kilnDir) } : { provider: 'cloud_b', api_url: server.url, model: 'hashed-bow-256' }),
    // HEARTH_EVAL_DATABASE_URL: the same through the team database's store (its own full-text search).
    processing: ProcessingSchema.parse(process.env.HEARTH_EVAL_DATABASE_URL ? { store: 'postgres', database_url: '{env:HEARTH_EVAL_DATABASE_URL}', kiln_id: 'eval' } : {}),
    embedderDeps: { env: { HEARTH_EVAL_DATABASE_URL: process.env.HEARTH_EVAL_DATABASE_URL ?? '' } },
    log: silentLogger,
  });
  try {
    const report = await index.update();
    console.error(`indexed ${report.embeddedNotes} notes (${report.embedded} chunks) in ${report.seconds.toFixed(1)} s`);
    const out = [];
    for (const set of sets) {
      const metrics: Metrics[] = [];
      for (const mode of modes) {
        let top1 = 0;
        let recall = 0;
        let rr = 0;
        let distinct = 0;
        const started = performance.now();
        for (const q of set.queries) {
          const results = mode === 'lexical' ? await index.search(q.query, { mode: 'hybrid', limit: 10, lexicalWeight: 1 }) : await index.search(q.query, { mode, limit: 10 });
          const paths = results.slice(0, 10).map((r) => r.path);
          const rank = paths.indexOf(q.note);
          if (rank !== 0 && showMisses) console.error(`miss [${set.name} ${mode}] ${JSON.stringify(q.query)} → want ${q.note} (rank ${rank < 0 ? '>10' : rank + 1}), got ${paths.slice(0, 3).join(', ')}`);
          if (rank === 0) top1++;
          if (rank >= 0) {
            recall++;
            rr += 1 / (rank + 1);
          }
          distinct += new Set(paths).size;
        }
        const n = set.queries.length;
        metrics.push({ mode, queries: n, top1: top1 / n, recall10: recall / n, mrr: rr / n, distinct: distinct / n, msPerQuery: (performance.now() - started) / n });
      }
      out.push({ set: set.name, metrics });
    }
    return out;
  } finally {
    await index.dispose();
    await server.stop();
    rmSync(copy, { recursive: true, force: true });
  }
}

/** A model2vec table (random weights) whose vocabulary is the kiln's 20,000 most frequent words: local_cpu's default code path. */
function staticTable(kilnDir: string): string {
  const counts = new Map<string, number>();
  for (const file of readdirSync(kilnDir, { recursive: true }) as string[]) {
    if (!file.endsWith('.md')) continue;
    for (const [word] of readFileSync(join(kilnDir, file), 'utf8').toLowerCase().matchAll(/[a-z]+/g)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const words = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20_000).map(([w]) => w);
  return generateStaticModel(join(here, '..', '..', '.tmp', 'eval-static-model'), { words });
}

function loadQueries(file: string): Query[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed) || parsed.some((q) => typeof q?.query !== 'string' || typeof q?.note !== 'string')) {
    throw new Error(`${file}: expected a JSON array of {"query": "...", "note": "kiln-relative path"}`);
  }
  return parsed as Query[];
}

export function printMetrics(results: { set: string; metrics: Metrics[] }[]): void {
  for (const { set, metrics } of results) {
    console.log(`\n${set} (${metrics[0]?.queries ?? 0} queries)`);
    console.log('| mode     | top-1 | recall@10 | MRR   | distinct notes / top 10 | ms / query |');
    console.log('|----------|-------|-----------|-------|-------------------------|------------|');
    for (const m of metrics) {
      console.log(`| ${m.mode.padEnd(8)} | ${m.top1.toFixed(3)} | ${m.recall10.toFixed(3).padEnd(9)} | ${m.mrr.toFixed(3)} | ${m.distinct.toFixed(2).padEnd(23)} | ${m.msPerQuery.toFixed(1).padEnd(10)} |`);
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kiln: { type: 'string' }, queries: { type: 'string' }, heldout: { type: 'boolean' }, modes: { type: 'string' }, json: { type: 'boolean' }, misses: { type: 'boolean' },
      embedder: { type: 'string' },
    },
  });
  if ((values.kiln === undefined) !== (values.queries === undefined)) throw new Error('give --kiln DIR and --queries FILE together (or neither, for the dev set)');
  const modes = (values.modes ?? 'hybrid,lexical,semantic,text').split(',') as EvalMode[];
  const kiln = resolve(values.kiln ?? join(here, 'kiln'));
  const sets = values.queries
    ? [{ name: values.queries, queries: loadQueries(resolve(values.queries)) }]
    : [{ name: 'dev', queries: loadQueries(join(here, 'dev.json')) }];
  if (values.heldout) sets.push({ name: 'held-out', queries: loadQueries(join(here, 'heldout.json')) });
  if (values.embedder !== undefined && values.embedder !== 'static' && values.embedder !== 'hashed') throw new Error('--embedder takes static or hashed');
  // Without --embedder: the hashed server (the figures to tune on), then the static code path.
  const embedders = values.embedder ? [values.embedder as 'hashed' | 'static'] : (['hashed', 'static'] as const);
  for (const embedder of embedders) {
    const results = await evaluate(kiln, sets, modes, values.misses, embedder);
    if (values.json) console.log(JSON.stringify(embedders.length > 1 ? { embedder, results } : results, null, 2));
    else {
      console.log(
        embedder === 'static'
          ? '\nembedder: local_cpu static (the model2vec code path: tokenizer, table, pooling, in its worker) on a generated table of the kiln\'s words with RANDOM weights — it proves the plumbing; the quality of real weights (potion-base-8M) cannot be measured here'
          : '\nembedder: hashed bag of words over the OpenAI-compatible wire (test/eval/hashedEmbedServer.ts)',
      );
      printMetrics(results);
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
