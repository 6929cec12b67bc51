// Checked model switches (issue 16, "the panel tells the truth"): a provider prefix that names no
// configured provider is an error listing the configured ones closest first, and changes nothing,
// unless the active provider lists a model by that whole name; a list that cannot be fetched is
// the error. Embedding models are marked. Real local-runner and OpenAI providers against aimock.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HearthConfigSchema } from '../../../src/core/config/schema';
import { isLlmError } from '../../../src/core/llm/errors';
import { LlmRuntime } from '../../../src/core/llm/llmRuntime';
import { modelKind } from '../../../src/core/llm/modelKind';
import { closestProviders, switchModelChecked } from '../../../src/core/llm/modelSwitch';
import { modelRows } from '../../../src/core/llm/modelTable';
import { runnerReport } from '../../../src/core/llm/runnerCheck';
import { closedPort, startMockLlm, type MockLlm } from './mockLlm';

let server: MockLlm;
before(async () => {
  server = await startMockLlm({ extraTags: [{ name: 'vendor/model-x', family: 'llama' }, { name: 'nomic-embed-text:latest', family: 'nomic-bert' }] });
});
after(() => server.stop());

async function runtime(localEndpoint = server.url): Promise<LlmRuntime> {
  const config = HearthConfigSchema.parse({
    llm: {
      default: 'local',
      providers: {
        local: { type: 'ollama', endpoint: localEndpoint, default_model: 'qwen2.5:0.5b' },
        cloud: { type: 'openai', endpoint: `${server.url}/v1`, default_model: 'gpt-4o-mini', api_key: '{env:K}' },
        offline: { type: 'ollama', endpoint: 'http://127.0.0.1:9', default_model: 'llama3.2' },
      },
    },
  });
  return new LlmRuntime(() => ({ config, sources: {}, keys: { llm: { cloud: 'k' }, embedding: undefined } }), { maxRetries: 0 });
}

const deps = (r: LlmRuntime) => ({ selection: r.selection, catalog: r.catalog, provider: (s: Parameters<LlmRuntime['provider']>[0]) => r.provider(s) });

test('closest providers first, ties in configuration order', () => {
  assert.deepEqual(closestProviders('lcoal', ['cloud', 'offline', 'local']), ['local', 'cloud', 'offline']);
  assert.deepEqual(closestProviders('zzz', ['b', 'a']), ['b', 'a']);
});

test('a prefix naming no provider fails with the configured ones, closest first, and changes nothing', async () => {
  const r = await runtime();
  const seen: string[] = [];
  r.selection.onDidChange((p) => seen.push(p.name));
  await assert.rejects(switchModelChecked(deps(r), 'cluod/gpt-4o'), (error: unknown) => {
    assert.ok(isLlmError(error, 'llm.unknown_provider'));
    assert.equal(error.message, "no provider 'cluod' — configured: cloud, local, offline");
    return true;
  });
  assert.equal(r.selection.currentId(), 'local/qwen2.5:0.5b');
  assert.deepEqual(seen, []);
});

test('the whole name is accepted when the active provider lists it (vendor/model); configured prefixes and bare names as before', async () => {
  const r = await runtime();
  assert.equal((await switchModelChecked(deps(r), 'vendor/model-x')).model, 'vendor/model-x');
  assert.equal(r.selection.currentId(), 'local/vendor/model-x');
  await switchModelChecked(deps(r), 'cloud/gpt-4o');
  assert.equal(r.selection.currentId(), 'cloud/gpt-4o');
  await switchModelChecked(deps(r), 'gpt-4.1');
  assert.equal(r.selection.currentId(), 'cloud/gpt-4.1');
});

test('when the active provider cannot list its models, an unknown prefix is the error and says so', async () => {
  const r = await runtime(`http://127.0.0.1:${await closedPort()}`);
  await assert.rejects(switchModelChecked(deps(r), 'vendor/model-x'), (error: unknown) => {
    assert.ok(isLlmError(error, 'llm.unknown_provider'));
    assert.match(error.message, /^no provider 'vendor' — configured: .*local's model list.*could not be fetched/);
    return true;
  });
  assert.equal(r.selection.currentId(), 'local/qwen2.5:0.5b');
});

test('embedding models are marked in the listing and its rows', async () => {
  const r = await runtime();
  const [local] = await r.catalog.list();
  const kinds = Object.fromEntries(local!.models.map((m) => [m.id, m.kind]));
  assert.equal(kinds['nomic-embed-text:latest'], 'embedding');
  assert.equal(kinds['qwen2.5:0.5b'], 'chat');
  const rows = modelRows([local!], r.selection.providers(), r.selection.current());
  assert.equal(rows.find((row) => row.model === 'nomic-embed-text:latest')?.kind, 'embedding');
  assert.equal(modelKind('text-embedding-3-small'), 'embedding');
  assert.equal(modelKind('BAAI/bge-small-en-v1.5'), 'embedding');
  assert.equal(modelKind('all-MiniLM-L6-v2'), 'embedding');
  assert.equal(modelKind('gpt-4o-mini'), 'chat');
  assert.equal(modelKind('gemma3:4b'), 'chat');
});

test('Check Local Runner: a runner that answers without the configured model is a problem naming it; embedding models are not chat models', async () => {
  const r = await runtime();
  const [local] = await r.catalog.list();
  const ok = runnerReport(local!, 'qwen2.5:0.5b');
  assert.equal(ok.problem, false);
  assert.match(ok.line, /answers with 3 chat models: llama3\.2:latest, qwen2\.5:0\.5b, vendor\/model-x; the configured "qwen2\.5:0\.5b" is there/);
  const missing = runnerReport(local!, 'mistral:7b');
  assert.equal(missing.problem, true);
  assert.match(missing.line, /the configured model "mistral:7b" is not installed there .*"Hearth: Switch Model"/);
  const down = await runtime(`http://127.0.0.1:${await closedPort()}`);
  const [gone] = await down.catalog.list();
  assert.equal(runnerReport(gone!, 'qwen2.5:0.5b').problem, true);
});
