// QueryEmbeddingWorker (the worker thread `hearth search` embeds its query in), run from sources as
// the CLI's tests run it, against loopback servers speaking the OpenAI and Ollama wire formats
// through the real SDK: the same vector as in-process, the provider's refusals as their codes with
// no key in any text, and a worker that is aborted, disposed or left unused lets its process exit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createRemoteEmbedder, type RemoteEmbedderSpec } from '../../../src/core/index/embedders/createEmbedder';
import { EmbeddingError } from '../../../src/core/index/embedders/embedder';
import { QueryEmbeddingWorker } from '../../../src/core/index/embedders/queryEmbedding';
import { EMBEDDING_PROVIDER_DEFAULTS } from '../../../src/core/config/providerTypes';
import { Redactor } from '../../../src/core/logging/redactor';
import { startHashedEmbedServer } from '../../eval/hashedEmbedServer';
import { settlesWithin, startScriptedServer } from '../net/scriptedHttp';
import { json, startEmbedServer, startOllamaEmbed } from './embedServers';

const KEY = 'sk-hearth-test-0123456789abcdef';
const openai = (baseURL: string, model = 'hashed', apiKey: string | undefined = KEY): RemoteEmbedderSpec => ({ kind: 'openai', providerType: 'cloud_b', model, baseURL, ...(apiKey ? { apiKey } : {}) });

/** The embed's rejection, which must come (no hang) and be an EmbeddingError. */
async function failure(embedding: Promise<Float32Array>): Promise<EmbeddingError> {
  const error = await settlesWithin(embedding, 30_000, 'the query embedding').then(
    (vector) => assert.fail(`resolved with a vector of ${vector.length}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof EmbeddingError, String(error));
  return error;
}

function leaks(error: Error, secret: string): boolean {
  return [error.message, String(error), error.stack ?? '', JSON.stringify(error)].some((text) => text.includes(secret));
}

test('the worker answers the same vector as the embedder made in this thread (OpenAI wire format, Ollama /api/embed)', async () => {
  const hashed = await startHashedEmbedServer(64);
  const ollama = await startOllamaEmbed();
  try {
    const query = 'water the tomatoes every morning';
    const specs: RemoteEmbedderSpec[] = [openai(hashed.url), { kind: 'runner', model: 'nomic-embed-text', host: ollama.url }];
    for (const spec of specs) {
      const [inProcess] = await (await createRemoteEmbedder(spec, new Redactor())).embed([query]);
      const fromWorker = await settlesWithin(new QueryEmbeddingWorker().embed(spec, query, new Redactor()), 30_000, `the ${spec.kind} embed`);
      assert.ok(fromWorker instanceof Float32Array, spec.kind);
      assert.equal(fromWorker.length, inProcess.length, spec.kind);
      assert.deepEqual(fromWorker, inProcess, spec.kind);
    }
    assert.equal(hashed.requests, 2);
    assert.deepEqual(ollama.bodies.map((b) => b.path), ['/api/embed', '/api/embed']);
  } finally {
    await hashed.stop();
    await ollama.stop();
  }
});

test('a 401 whose body echoes the key is embedding.auth, and the key is in no text of the error', async () => {
  const server = await startEmbedServer((_, __, res) => json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}. Header was Bearer ${KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
  try {
    const error = await failure(new QueryEmbeddingWorker().embed(openai(`${server.url}/v1`), 'q', new Redactor()));
    assert.equal(error.code, 'embedding.auth');
    assert.equal(error.status, 401);
    assert.ok(!leaks(error, KEY), error.message);
  } finally {
    await server.stop();
  }
});

test('a provider error echoing secrets is scrubbed in the worker (the key) and again here (what only this thread knows)', async () => {
  const proxyPassword = 'proxy-pass-Zq81xw';
  const server = await startEmbedServer((_, __, res) => json(res, 500, { error: { message: `upstream refused key ${KEY} via proxy login ${proxyPassword}` } }));
  try {
    const redactor = new Redactor();
    redactor.add(proxyPassword);
    const error = await failure(new QueryEmbeddingWorker().embed(openai(`${server.url}/v1`), 'q', redactor));
    assert.equal(error.code, 'embedding.request_failed');
    assert.match(error.message, /upstream refused key «redacted» via proxy login «redacted»/);
    assert.ok(!leaks(error, KEY) && !leaks(error, proxyPassword), error.message);
  } finally {
    await server.stop();
  }
});

test('an unknown model (404) is embedding.model_not_found, from the OpenAI wire format and from the runner', async () => {
  const server = await startEmbedServer((_, body, res) => json(res, 404, { error: { message: `The model '${String(body.model)}' does not exist`, code: 'model_not_found' } }));
  const ollama = await startOllamaEmbed('nomic-embed-text');
  try {
    const cloud = await failure(new QueryEmbeddingWorker().embed(openai(`${server.url}/v1`, 'no-such-model'), 'q', new Redactor()));
    assert.equal(cloud.code, 'embedding.model_not_found');
    assert.match(cloud.message, /"no-such-model"/);
    const runner = await failure(new QueryEmbeddingWorker().embed({ kind: 'runner', model: 'missing-model', host: ollama.url }, 'q', new Redactor()));
    assert.equal(runner.code, 'embedding.model_not_found');
  } finally {
    await server.stop();
    await ollama.stop();
  }
});

const GARBAGE: Record<string, { type: string; body: string }> = {
  'a body that is not JSON': { type: 'application/json', body: '{"object": "list", "data": [{"embedding": [0.1,' },
  'no vector in the list': { type: 'application/json', body: JSON.stringify({ object: 'list', data: [], model: 'm' }) },
  'a vector that is not numbers': { type: 'application/json', body: JSON.stringify({ object: 'list', data: [{ index: 0, embedding: 'AAAAAAAA' }], model: 'm' }) },
  'no data at all': { type: 'application/json', body: JSON.stringify({ object: 'list' }) },
  'HTML from a proxy': { type: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' },
};
for (const [what, answer] of Object.entries(GARBAGE)) {
  test(`a provider answering 200 with ${what}: a clear EmbeddingError, no hang, no NaN vector`, async () => {
    const server = await startEmbedServer((_, __, res) => res.writeHead(200, { 'content-type': answer.type }).end(answer.body));
    try {
      const error = await failure(new QueryEmbeddingWorker().embed(openai(`${server.url}/v1`), 'q', new Redactor()));
      assert.match(error.code, /^embedding\.(bad_response|request_failed)$/);
      assert.match(error.message, /cloud_b|provider|embedding/i);
    } finally {
      await server.stop();
    }
  });
}

/** An embeddings endpoint that takes the request and never answers; `requested` settles when it has one. */
async function stalledProvider(): Promise<{ server: Awaited<ReturnType<typeof startScriptedServer>>; requested: Promise<void> }> {
  let arrived!: () => void;
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  return { server: await startScriptedServer({ '/v1/embeddings': () => arrived() }), requested };
}

test('an embed aborted while the provider stalls rejects with the reason; the worker answers no second query', async () => {
  const { server, requested } = await stalledProvider();
  try {
    const worker = new QueryEmbeddingWorker();
    const controller = new AbortController();
    const pending = worker.embed(openai(`${server.url}/v1`), 'q', new Redactor(), controller.signal);
    pending.catch(() => undefined);
    await requested;
    const reason = new Error('search cancelled');
    controller.abort(reason);
    await assert.rejects(settlesWithin(pending, 30_000, 'the aborted embed'), (error) => error === reason);
    assert.equal(worker.spent, true);
    const again = await failure(worker.embed(openai(`${server.url}/v1`), 'q', new Redactor()));
    assert.equal(again.code, 'embedding.failed');
    await settlesWithin(server.allClosed(), 30_000, 'the worker letting go of its connection');
  } finally {
    await server.stop();
  }
});

test('a second embed while the first is in flight is refused, and the first still answers', async () => {
  const hashed = await startHashedEmbedServer(16);
  try {
    const worker = new QueryEmbeddingWorker();
    const first = worker.embed(openai(hashed.url), 'first', new Redactor());
    const second = await failure(worker.embed(openai(hashed.url), 'second', new Redactor()));
    assert.equal(second.code, 'embedding.failed');
    assert.equal((await settlesWithin(first, 30_000, 'the first embed')).length, 16);
    assert.equal(hashed.texts, 1);
  } finally {
    await hashed.stop();
  }
});

test('disposing while an embed waits on the provider rejects it as embedding.disposed; an embed after dispose is refused', async () => {
  const { server, requested } = await stalledProvider();
  try {
    const worker = new QueryEmbeddingWorker();
    const pending = worker.embed(openai(`${server.url}/v1`), 'q', new Redactor());
    pending.catch(() => undefined);
    await requested;
    await worker.dispose();
    assert.equal((await failure(pending)).code, 'embedding.disposed');
    const unused = new QueryEmbeddingWorker();
    await unused.dispose();
    assert.equal(unused.spent, true);
    assert.equal((await failure(unused.embed(openai(`${server.url}/v1`), 'q', new Redactor()))).code, 'embedding.failed');
  } finally {
    await server.stop();
  }
});

for (const mode of ['abort', 'dispose', 'unused'] as const) {
  test(`a process whose query worker is ${mode === 'unused' ? 'left unused, never disposed' : `${mode === 'abort' ? 'aborted' : 'disposed'} mid-request`} exits by itself`, { timeout: 120_000 }, async () => {
    // The provider never answers and keeps the connection: only the child letting go lets it exit.
    const { server, requested } = await stalledProvider();
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', resolve('test/unit/index/fixtures/queryWorkerChild.ts'), mode, `${server.url}/v1`], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      if (mode !== 'unused') {
        await settlesWithin(requested, 60_000, 'the worker reaching the provider');
        child.stdin.write('stop\n');
      }
      const code = await settlesWithin(exited, 60_000, 'the child process exiting').finally(() => child.kill());
      assert.equal(code, 0);
      const expected = { abort: { rejected: 'stopped by the test' }, dispose: { rejected: 'embedding.disposed' }, unused: { unused: true } }[mode];
      assert.deepEqual(JSON.parse(out), expected);
    } finally {
      await server.stop();
    }
  });
}

test('cloud_a without a key at the real service: embedding.missing_key naming the variables, as in-process (the worker sent a keyless request)', async () => {
  const spec: RemoteEmbedderSpec = { kind: 'openai', providerType: 'cloud_a', model: 'text-embedding-3-small', baseURL: EMBEDDING_PROVIDER_DEFAULTS.cloud_a.apiUrl! };
  const inProcess = await createRemoteEmbedder(spec, new Redactor()).then(
    () => assert.fail('made an embedder without a key'),
    (e: unknown) => e as EmbeddingError,
  );
  assert.equal(inProcess.code, 'embedding.missing_key');
  const error = await failure(new QueryEmbeddingWorker().embed(spec, 'q', new Redactor()));
  assert.equal(error.code, 'embedding.missing_key');
  assert.match(error.message, /CLOUD_A_API_KEY/);
});

test('a runner address with a password: the worker cannot reach it, and the password is scrubbed from its error here', async () => {
  const closed = await startScriptedServer({});
  const host = closed.url.replace('http://', 'http://admin:s3cret-runner-pass@');
  await closed.stop();
  const redactor = new Redactor();
  // As the CLI's config load registers every URL's userinfo.
  redactor.addUrl(host);
  const error = await failure(new QueryEmbeddingWorker().embed({ kind: 'runner', model: 'nomic-embed-text', host }, 'q', redactor));
  assert.equal(error.code, 'embedding.runner_unreachable');
  assert.ok(!leaks(error, 's3cret-runner-pass'), error.message);
  assert.match(error.message, /The local runner at http:\/\/admin:«redacted»@127\.0\.0\.1:\d+ is not reachable \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/);
});

test('a refused connection says what the socket said, not only the SDK\'s "Connection error."', async () => {
  const closed = await startScriptedServer({});
  await closed.stop();
  const error = await failure(new QueryEmbeddingWorker().embed(openai(`${closed.url}/v1`), 'q', new Redactor()));
  assert.equal(error.code, 'embedding.request_failed');
  assert.match(error.message, /^cloud_b embeddings failed: Connection error\. \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
});
