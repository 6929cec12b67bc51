import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/load';
import { HearthConfigSchema } from '../../../src/core/config/schema';
import { activeProvider } from '../../../src/core/llm/activeProvider';
import type { ConfigSource } from '../../../src/core/config/problem';

const parse = (raw: unknown) => HearthConfigSchema.parse(raw);

test('without [llm.providers], [chat] is the implicit provider "chat" with the chat defaults', () => {
  const active = activeProvider(parse({}));
  assert.equal(active.name, 'chat');
  assert.equal(active.implicit, true);
  assert.equal(active.type, 'local_runner');
  assert.equal(active.model, 'llama3.2');
  assert.equal(active.endpoint, 'http://127.0.0.1:11434');
  assert.equal(active.temperature, 0.7);
  assert.equal(active.maxTokens, 2048);
  assert.equal(active.timeoutSecs, 120);
  assert.equal(active.apiKeyRef, undefined);
});

test('the implicit provider takes [chat] values and canonicalises aliases', () => {
  const active = activeProvider(parse({ chat: { provider: 'anthropic', model: 'claude-x', temperature: 0.1, max_tokens: 99 } }));
  assert.equal(active.type, 'cloud_b');
  assert.equal(active.model, 'claude-x');
  assert.equal(active.endpoint, 'https://api.anthropic.com');
  assert.equal(active.temperature, 0.1);
  assert.equal(active.maxTokens, 99);
  assert.deepEqual(active.apiKeyEnv, ['CLOUD_B_API_KEY', 'ANTHROPIC_API_KEY']);
});

test('[llm].default picks the provider table; its values and the 4096 max_tokens default apply', () => {
  const config = parse({
    llm: {
      default: 'work',
      providers: {
        home: { type: 'ollama' },
        work: { type: 'openai', default_model: 'gpt-4.1', api_key: '{env:WORK_KEY}', temperature: 0.2 },
      },
    },
  });
  const active = activeProvider(config);
  assert.equal(active.name, 'work');
  assert.equal(active.implicit, false);
  assert.equal(active.type, 'cloud_a');
  assert.equal(active.model, 'gpt-4.1');
  assert.equal(active.endpoint, 'https://api.openai.com/v1');
  assert.equal(active.temperature, 0.2);
  assert.equal(active.maxTokens, 4096);
  assert.equal(active.apiKeyRef, '{env:WORK_KEY}');
});

test('a provider without default_model or endpoint gets its type defaults', () => {
  const active = activeProvider(parse({ llm: { default: 'z', providers: { z: { type: 'zai' } } } }));
  assert.equal(active.model, 'glm-4.7');
  assert.equal(active.endpoint, 'https://api.z.ai/api/coding/paas/v4');
});

test('a custom provider has no default model but keeps its endpoint', () => {
  const active = activeProvider(parse({ llm: { default: 'c', providers: { c: { type: 'custom', endpoint: 'http://127.0.0.1:9999/v1' } } } }));
  assert.equal(active.model, undefined);
  assert.equal(active.endpoint, 'http://127.0.0.1:9999/v1');
});

test('an unknown or missing [llm].default falls back to the first provider', () => {
  const providers = { first: { type: 'cloud_b' }, second: { type: 'cloud_a' } };
  assert.equal(activeProvider(parse({ llm: { default: 'nope', providers } })).name, 'first');
  assert.equal(activeProvider(parse({ llm: { providers } })).name, 'first');
});

test('keys set explicitly in [chat] override the provider table; defaulted [chat] keys do not', () => {
  const config = parse({
    chat: { model: 'override-model', temperature: 1.5, max_tokens: 2048 },
    llm: { default: 'p', providers: { p: { type: 'cloud_a', default_model: 'table-model', temperature: 0.3, timeout_secs: 60 } } },
  });
  const sources: Record<string, ConfigSource> = {
    'chat.model': 'workspace',
    'chat.temperature': 'global',
    'chat.max_tokens': 'default',
    'chat.timeout_secs': 'default',
  };
  const active = activeProvider(config, sources);
  assert.equal(active.model, 'override-model');
  assert.equal(active.temperature, 1.5);
  // chat.max_tokens is only its default (2048): the table's 4096 stays.
  assert.equal(active.maxTokens, 4096);
  assert.equal(active.timeoutSecs, 60);

  // Without source information nothing in [chat] counts as explicit.
  const plain = activeProvider(config);
  assert.equal(plain.model, 'table-model');
  assert.equal(plain.temperature, 0.3);
});

test('an env-sourced [chat] endpoint (LOCAL_RUNNER_HOST) does not override another provider table', () => {
  const config = parse({
    chat: { endpoint: 'http://127.0.0.1:5555' },
    llm: { default: 'cloud', providers: { cloud: { type: 'cloud_a' } } },
  });
  const active = activeProvider(config, { 'chat.endpoint': 'env' });
  assert.equal(active.endpoint, 'https://api.openai.com/v1');
});

test('with real files: a [chat] key set in the workspace file overrides the global provider table', async () => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-active-'));
  try {
    await writeFile(join(root, 'global.toml'), '[llm]\ndefault = "home"\n[llm.providers.home]\ntype = "ollama"\ndefault_model = "qwen2.5:0.5b"\ntemperature = 0.1\n');
    await mkdir(join(root, 'ws', '.hearth'), { recursive: true });
    await writeFile(join(root, 'ws', '.hearth', 'config.toml'), '[chat]\ntemperature = 1.2\n');
    const loaded = await loadConfig({ trusted: true, workspaceRoot: join(root, 'ws'), env: { LOCAL_RUNNER_HOST: '127.0.0.1:7777' }, globalConfigPath: join(root, 'global.toml') });
    assert.deepEqual(loaded.problems, []);
    const active = activeProvider(loaded.config, loaded.sources);
    assert.equal(active.name, 'home');
    assert.equal(active.type, 'local_runner');
    assert.equal(active.model, 'qwen2.5:0.5b');
    assert.equal(active.temperature, 1.2);
    assert.equal(active.endpoint, 'http://127.0.0.1:7777');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
