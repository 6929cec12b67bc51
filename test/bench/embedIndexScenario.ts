// One first `hearth index` of a kiln with a local_cpu model, in a process of its own (as the CLI runs
// it: the embedder in its worker thread, the flat store, the word index): prints its report's
// figures and the process's peak RSS as one JSON line.
//   node --import tsx test/bench/embedIndexScenario.ts KILN MODEL
import { EmbeddingSchema, ProcessingSchema } from '../../src/core/config/schema';
import { silentLogger } from '../../src/core/host';
import { KilnIndex } from '../../src/core/index/kilnIndex';

async function main(): Promise<void> {
  const [kilnRoot, model] = process.argv.slice(2);
  const started = performance.now();
  const index = new KilnIndex({ kilnRoot, embedding: EmbeddingSchema.parse({ model }), processing: ProcessingSchema.parse({}), embedderDeps: { env: {} }, log: silentLogger });
  const report = await index.update();
  const indexed = performance.now();
  // The first search after the run (the word index, where it is built then, and the query's embedding).
  await index.search('how do I configure the server', { limit: 10 });
  const searched = performance.now();
  await index.dispose();
  console.log(
    JSON.stringify({
      seconds: (indexed - started) / 1000,
      firstSearchSeconds: (searched - indexed) / 1000,
      notes: report.notes,
      chunks: report.chunks,
      embedder: report.embedder,
      rssMb: process.resourceUsage().maxRSS / 1024,
      // All threads' CPU time: on a shared machine under load, wall time is mostly waiting for a core.
      cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
