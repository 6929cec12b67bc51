// Listing across providers: parallel, failures beside the others' models, a 5-minute cache.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/llm/createProvider';
import { ModelCatalog, MODEL_CACHE_TTL_MS } from '../../../src/core/llm/modelCatalog';
import { parseModelId } from '../../../src/core/llm/modelId';
import { closedPort, endpointFor, GOOD_KEY, settingsFor, startMockLlm, type MockLlm } from './mockLlm';

let server: MockLlm;
before(async () => {
  server = await startMockLlm();
  server.mock.on({ model: 'gpt-4o-mini' }, { content: 'x' });
  server.mock.on({ model: 'claude-haiku-4-5' }, { content: 'x' });
});
after(() => server.stop());

test('every provider is listed; a dead one carries its error beside the others', async () => {
  const deadPort = await closedPort();
  const deps = { maxRetries: 0 };
  const providers = [
    createProvider(settingsFor('local_runner', server.url, { name: 'local' }), deps),
    createProvider(settingsFor('cloud_a', endpointFor('cloud_a', server.url), { name: 'openai', apiKeyRef: '{env:K}', apiKey: GOOD_KEY }), deps),
    createProvider(settingsFor('cloud_b', server.url, { name: 'claude', apiKeyRef: '{env:K}', apiKey: GOOD_KEY }), deps),
    createProvider(settingsFor('local_runner', `http://127.0.0.1:${deadPort}`, { name: 'gpu-box' }), deps),
    createProvider(settingsFor('cloud_a', endpointFor('cloud_a', server.url), { name: 'nokey', apiKeyEnv: ['CLOUD_A_API_KEY'] }), deps),
  ];
  let now = 1_000_000;
  const catalog = new ModelCatalog(() => providers, { now: () => now });
  const countTags = () => server.requests.filter((r) => r === 'GET /api/tags').length;

  const listed = await catalog.list();
  assert.deepEqual(listed.map((p) => p.provider), ['local', 'openai', 'claude', 'gpu-box', 'nokey']);
  assert.deepEqual(listed[0].models.map((m) => m.id), ['llama3.2:latest', 'qwen2.5:0.5b']);
  assert.ok(listed[1].models.some((m) => m.id === 'gpt-4o-mini'));
  assert.ok(listed[2].models.some((m) => m.id === 'claude-haiku-4-5'));
  assert.equal(listed[3].models.length, 0);
  assert.equal(listed[3].error?.code, 'llm.unreachable');
  assert.equal(listed[4].error?.code, 'config.missing_secret');
  assert.match(listed[4].error!.message, /CLOUD_A_API_KEY/);
  const afterFirst = countTags();

  // cached: no new request within 5 minutes
  now += MODEL_CACHE_TTL_MS - 1;
  await catalog.list();
  assert.equal(countTags(), afterFirst);
  // refresh asks again
  await catalog.list({ refresh: true });
  assert.equal(countTags(), afterFirst + 1);
  // and so does expiry
  now += MODEL_CACHE_TTL_MS;
  await catalog.list();
  assert.equal(countTags(), afterFirst + 2);
});

test('model ids: provider/model, bare names keep the provider, slashes inside model names', () => {
  const names = ['local', 'router'];
  assert.deepEqual(parseModelId('router/openai/gpt-4o', names, 'local'), { provider: 'router', model: 'openai/gpt-4o' });
  assert.deepEqual(parseModelId('qwen2.5:0.5b', names, 'local'), { provider: 'local', model: 'qwen2.5:0.5b' });
  assert.deepEqual(parseModelId('openai/gpt-4o', names, 'router'), { provider: 'router', model: 'openai/gpt-4o' });
  assert.deepEqual(parseModelId('router/', names, 'local'), { provider: 'router' });
});

test('cloud_b lists every page of /v1/models in its own wire format, with its key', async () => {
  const { createServer } = await import('node:http');
  const seen: { url: string; key?: string; version?: string }[] = [];
  const pages: Record<string, object> = {
    '': { data: [{ type: 'model', id: 'claude-opus-4-5', display_name: 'Claude Opus 4.5', created_at: '2025-11-01T00:00:00Z' }], has_more: true, first_id: 'claude-opus-4-5', last_id: 'claude-opus-4-5' },
    'claude-opus-4-5': { data: [{ type: 'model', id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: '2025-10-01T00:00:00Z' }], has_more: false, first_id: 'claude-haiku-4-5', last_id: 'claude-haiku-4-5' },
  };
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ url: req.url ?? '', key: (req.headers['x-api-key'] as string) ?? req.headers.authorization?.replace(/^Bearer /, ''), version: req.headers['anthropic-version'] as string });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(pages[url.searchParams.get('after_id') ?? '']));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    const port = (http.address() as { port: number }).port;
    const provider = createProvider(settingsFor('cloud_b', `http://127.0.0.1:${port}`, { apiKeyRef: '{env:K}', apiKey: 'sk-ant-test-1' }), { maxRetries: 0 });
    const models = await provider.listModels();
    assert.deepEqual(models.map((m) => m.id), ['claude-haiku-4-5', 'claude-opus-4-5']);
    assert.equal(seen.length, 2);
    assert.ok(seen.every((s) => s.url.startsWith("/v1/models") && s.key === "sk-ant-test-1" && s.version), JSON.stringify(seen));
    // (this SDK version sends the key as a bearer token; older ones used x-api-key — either carries it)
  } finally {
    http.close();
  }
});
