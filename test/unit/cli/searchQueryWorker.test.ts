// `hearth search` embeds its query in a worker thread the dispatcher starts before the command
// loads (startSearchWorker). Which argument lists start one, and the CLI from sources end to end:
// a cloud_b (OpenAI wire format) and a local_runner (Ollama /api/embed) provider give the results
// the index gives in-process, and a provider refusing the key is one clear line, exit 1, no key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSearchWorker } from '../../../src/cli/commands/searchWorker';
import { EmbeddingSchema, ProcessingSchema } from '../../../src/core/config/schema';
import { silentLogger } from '../../../src/core/host';
import { QueryEmbeddingWorker } from '../../../src/core/index/embedders/queryEmbedding';
import { startQueryWorkerThread } from '../../../src/core/index/embedders/queryWorkerThread';
import { isHearthError } from '../../../src/core/errors';
import { Redactor } from '../../../src/core/logging/redactor';
import { KilnIndex } from '../../../src/core/index/kilnIndex';
import { hashedVector } from '../../eval/hashedEmbedServer';
import { json, startEmbedServer, startOllamaEmbed } from '../index/embedServers';
import { runHearth } from './runHearth';

const KEY = 'sk-cloudb-test-9f8e7d6c5b4a39281706';
const BIN = resolve('dist/cli.js');
const NOTES: Record<string, string> = {
  'garden.md': '# Plants\nTomatoes and basil grow by the garden wall.\n\n## Watering\nWater the tomatoes every morning in summer.\n',
  'kitchen/bread.md': '---\ntitle: Bread\n---\nFlour, water, salt and yeast make a simple bread.\n',
  'kitchen/coffee.md': '# Coffee\nGrind the beans just before brewing the coffee.\n',
  'notes/tea.md': '# Tea\nSteep green tea for three minutes; water just off the boil.\n',
};

test('startSearchWorker: no worker for text, property or help; one for hybrid, semantic and the default', async () => {
  for (const argv of [['q', '--mode', 'text'], ['--mode=property', 'status=draft'], ['-m', 'text', 'q'], ['-mtext', 'q'], ['--help'], ['-h'], ['q', '--mode', 'regex']]) {
    assert.equal(await startSearchWorker(argv), undefined, argv.join(' '));
  }
  for (const argv of [['q'], ['q', '--mode', 'hybrid'], ['-m', 'semantic', 'q'], ['q', '--mode=semantic', '--json'], ['--', '--mode', 'text'], ['q', '--limit', '3']]) {
    const worker = await startSearchWorker(argv);
    assert.ok(worker instanceof QueryEmbeddingWorker, argv.join(' '));
    await worker.dispose();
  }
});

function kiln(embedding: string): { root: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'hearth-search-worker-'));
  mkdirSync(join(root, '.hearth'));
  writeFileSync(join(root, '.hearth', 'config.toml'), `[embedding]\n${embedding}\n`);
  for (const [path, text] of Object.entries(NOTES)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, env: { HOME: root, XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1', CLOUD_B_API_KEY: KEY } };
}

/** The same search through a KilnIndex in this process, embedder made here (no worker), as JSON. */
async function inProcess(root: string, embedding: Record<string, unknown>, query: string, mode: 'hybrid' | 'semantic'): Promise<unknown> {
  const index = new KilnIndex({
    kilnRoot: root,
    embedding: EmbeddingSchema.parse(embedding),
    processing: ProcessingSchema.parse({}),
    embedderDeps: { env: {}, apiKey: KEY },
    log: silentLogger,
  });
  try {
    return JSON.parse(JSON.stringify(await index.search(query, { mode, limit: 10 })));
  } finally {
    await index.dispose();
  }
}

/** An OpenAI-compatible /v1/embeddings (hashed bags of words) that refuses the key once `refuse` is set, echoing it. */
async function cloudB() {
  const state = { refuse: false, queries: [] as string[] };
  const server = await startEmbedServer((_, body, res) => {
    const input = body.input as string[];
    state.queries.push(...input);
    if (state.refuse) return json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    json(res, 200, { object: 'list', model: body.model, data: input.map((text, index) => ({ object: 'embedding', index, embedding: hashedVector(text, 64) })), usage: { prompt_tokens: 0, total_tokens: 0 } });
  });
  return { ...server, state, url: `${server.url}/v1` };
}

test('hearth search with a cloud_b provider: hybrid and semantic answer what the index answers in-process', { timeout: 180_000 }, async () => {
  const provider = await cloudB();
  const embedding = { provider: 'cloud_b', model: 'hashed', api_url: provider.url };
  const { root, env } = kiln(`provider = "cloud_b"\nmodel = "hashed"\napi_url = ${JSON.stringify(provider.url)}`);
  try {
    const query = 'water the tomatoes every morning';
    const hybrid = await runHearth(['search', query, '--json', '--workspace', root], { cwd: root, env });
    assert.equal(hybrid.code, 0, hybrid.stderr);
    const results = JSON.parse(hybrid.stdout);
    assert.equal(results[0].path, 'garden.md');
    assert.ok(provider.state.queries.includes(query), 'the query was embedded by the provider');
    assert.deepEqual(results, await inProcess(root, embedding, query, 'hybrid'));

    const semantic = await runHearth(['search', 'green tea', '--mode', 'semantic', '--json', '--workspace', root], { cwd: root, env });
    assert.equal(semantic.code, 0, semantic.stderr);
    assert.deepEqual(JSON.parse(semantic.stdout), await inProcess(root, embedding, 'green tea', 'semantic'));
    assert.equal(JSON.parse(semantic.stdout)[0].path, 'notes/tea.md');
  } finally {
    await provider.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('hearth search when the provider refuses the key (401, echoing it): one clear line, exit 1, the key nowhere', { timeout: 180_000 }, async () => {
  const provider = await cloudB();
  const { root, env } = kiln(`provider = "cloud_b"\nmodel = "hashed"\napi_url = ${JSON.stringify(provider.url)}`);
  try {
    const indexed = await runHearth(['index', '--workspace', root], { cwd: root, env });
    assert.equal(indexed.code, 0, indexed.stderr);
    // The index is up to date: only the query reaches the provider, from the worker.
    provider.state.refuse = true;
    const refused = await runHearth(['search', 'tomatoes', '--workspace', root], { cwd: root, env });
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(refused.stdout, '');
    // Past the index run's progress, the error: one line that says what and where.
    const lines = refused.stderr.trim().split('\n').filter((line) => !line.startsWith('Indexing the kiln'));
    assert.deepEqual(lines, ['hearth search: cloud_b: the API key was refused (401).']);
    assert.ok(!refused.stderr.includes(KEY) && !refused.stdout.includes(KEY), refused.stderr);
    assert.deepEqual(provider.state.queries.slice(-1), ['tomatoes']);
  } finally {
    await provider.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('hearth search with a local_runner provider (Ollama /api/embed): the query is embedded, the results are the in-process ones', { timeout: 180_000 }, async () => {
  const runner = await startOllamaEmbed('nomic-embed-text');
  const embedding = { provider: 'local_runner', model: 'nomic-embed-text', api_url: runner.url };
  const { root, env } = kiln(`provider = "local_runner"\nmodel = "nomic-embed-text"\napi_url = ${JSON.stringify(runner.url)}`);
  try {
    const query = 'grind the coffee beans';
    const run = await runHearth(['search', query, '--json', '--workspace', root], { cwd: root, env });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(runner.bodies.some((b) => b.path === '/api/embed' && JSON.stringify(b.body) === JSON.stringify({ model: 'nomic-embed-text', input: [query] })), 'the query went to /api/embed');
    assert.deepEqual(JSON.parse(run.stdout), await inProcess(root, embedding, query, 'hybrid'));
  } finally {
    await runner.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

/** A worker script in a scratch folder: `body` runs in the thread. */
function workerFile(body: string): { file: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-early-worker-'));
  const file = join(dir, 'worker.cjs');
  writeFileSync(file, body);
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a query worker started before the CLI loaded (dist/cli.js starts it first thing) is the one the search asks', async () => {
  // Answers every request with one vector no embedder makes: the embed can only have come from it.
  const fake = workerFile("const { parentPort } = require('node:worker_threads');\nparentPort.once('message', () => parentPort.postMessage({ type: 'vector', vector: new Float32Array([0.25, 0.5, 0.75]) }));\n");
  try {
    const started = startQueryWorkerThread(fake.file);
    const worker = await startSearchWorker(['q', '--mode', 'semantic'], started);
    assert.ok(worker);
    const vector = await worker.embed({ kind: 'openai', providerType: 'cloud_b', model: 'm', baseURL: 'http://127.0.0.1:9/v1' }, 'q', new Redactor());
    assert.deepEqual([...vector], [0.25, 0.5, 0.75]);
  } finally {
    fake.cleanup();
  }
});

test('a query worker that failed before the search adopted it: the embed fails at once with embedding.worker_failed, never waits', async () => {
  const broken = workerFile("throw new Error('the bundle did not load');\n");
  try {
    const started = startQueryWorkerThread(broken.file);
    // Its error and exit come and go before anything listens but the thread's own record.
    while (!started.ended) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const worker = await startSearchWorker(['q'], started);
    assert.ok(worker);
    const failed = await Promise.race([
      worker.embed({ kind: 'openai', providerType: 'cloud_b', model: 'm', baseURL: 'http://127.0.0.1:9/v1' }, 'q', new Redactor()).then(() => 'answered', (error: unknown) => error),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
    ]);
    assert.ok(isHearthError(failed) && failed.code === 'embedding.worker_failed', String(failed));
    assert.match((failed as Error).message, /the bundle did not load/);
  } finally {
    broken.cleanup();
  }
});

test('the built bin (dist/cli.js) with a cloud_b provider: the query worker it starts first embeds the query; the results are the in-process ones', { skip: !existsSync(BIN) && 'run npm run build first', timeout: 180_000 }, async () => {
  const provider = await cloudB();
  const embedding = { provider: 'cloud_b', model: 'hashed', api_url: provider.url };
  const { root, env } = kiln(`provider = "cloud_b"\nmodel = "hashed"\napi_url = ${JSON.stringify(provider.url)}`);
  try {
    const query = 'grind the beans before brewing';
    const run = await runHearth(['search', query, '--json', '--workspace', root], { cwd: root, env, bin: BIN });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(provider.state.queries.includes(query), 'the query was embedded by the provider');
    assert.deepEqual(JSON.parse(run.stdout), await inProcess(root, embedding, query, 'hybrid'));
    assert.equal(JSON.parse(run.stdout)[0].path, 'kitchen/coffee.md');
  } finally {
    await provider.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
