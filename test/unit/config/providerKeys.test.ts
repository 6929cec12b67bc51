// Provider keys are resolved once, when the configuration loads (config/providerKeys.ts): the
// contract is that a provider uses the key read at load — a variable or secret changed afterwards
// reaches it at the next reload, never in between — that the trust filter runs first, and that
// every key read is fed to the redactor. The providers are the real SDKs against aimock.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type LoadedConfig } from '../../../src/core/config/load';
import { LlmRuntime } from '../../../src/core/llm/llmRuntime';
import { isLlmError } from '../../../src/core/llm/errors';
import { Redactor } from '../../../src/core/logging/redactor';
import type { ChatEvent } from '../../../src/core/llm/types';
import { GOOD_KEY, startMockLlm, type MockLlm } from '../llm/mockLlm';

let server: MockLlm;
before(async () => {
  server = await startMockLlm({ auth: true });
  server.mock.on({ userMessage: 'hello' }, { content: 'authorised' });
});
after(() => server.stop());

async function folder(global: string, workspace?: string): Promise<{ root: string; globalFile: string }> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-keys-'));
  await writeFile(join(root, 'global.toml'), global);
  if (workspace !== undefined) {
    await mkdir(join(root, '.hearth'));
    await writeFile(join(root, '.hearth', 'config.toml'), workspace);
  }
  return { root, globalFile: join(root, 'global.toml') };
}

const cloudA = (apiKey?: string) =>
  `[llm]\ndefault = "work"\n[llm.providers.work]\ntype = "cloud_a"\nendpoint = "${server.url}/v1"\ndefault_model = "gpt-4o"\n${apiKey ? `api_key = "${apiKey}"\n` : ''}`;

async function ask(runtime: LlmRuntime): Promise<string> {
  let text = '';
  for await (const event of runtime.provider().chat([{ role: 'user', content: 'hello' }], []) as AsyncIterable<ChatEvent>) if (event.type === 'text') text += event.text;
  return text;
}

async function askError(runtime: LlmRuntime): Promise<unknown> {
  return ask(runtime).then(() => assert.fail('expected the key to be refused'), (error: unknown) => error);
}

test('a key variable changed after load is not seen mid-session; the next reload applies it', async () => {
  const { root, globalFile } = await folder(cloudA());
  const env: NodeJS.ProcessEnv = { CLOUD_A_API_KEY: GOOD_KEY };
  const load = () => loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env, trusted: true });
  let loaded: LoadedConfig = await load();
  const runtime = new LlmRuntime(() => loaded, { maxRetries: 0 });
  assert.equal(await ask(runtime), 'authorised');

  env.CLOUD_A_API_KEY = 'sk-rotated-wrong';
  assert.equal(await ask(runtime), 'authorised', 'the provider keeps the key read at load');

  loaded = await load();
  assert.ok(isLlmError(await askError(runtime), 'llm.unauthorized'), 'after a reload the new (wrong) key is sent');

  delete env.CLOUD_A_API_KEY;
  env.OPENAI_API_KEY = GOOD_KEY;
  loaded = await load();
  assert.equal(await ask(runtime), 'authorised', 'the fallback variable, read at load too');
});

test('{secret:NAME} is read from the host store once per load (the editor reloads when a secret is set)', async () => {
  const { root, globalFile } = await folder(cloudA('{secret:team-key}'));
  const store = new Map([['team-key', GOOD_KEY]]);
  let reads = 0;
  const secrets = { get: async (name: string) => (reads++, store.get(name)) };
  const redactor = new Redactor();
  const load = () => loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env: {}, trusted: true, secrets, redactor });
  let loaded = await load();
  const afterLoad = reads;
  assert.equal(afterLoad, 1, 'the redactor walk and the keys share one read');
  assert.equal(redactor.redact(GOOD_KEY), '«redacted»');
  const runtime = new LlmRuntime(() => loaded, { maxRetries: 0 });
  assert.equal(await ask(runtime), 'authorised');
  store.set('team-key', 'sk-wrong');
  assert.equal(await ask(runtime), 'authorised');
  assert.equal(reads, afterLoad, 'no request reads the store');
  loaded = await load();
  assert.ok(isLlmError(await askError(runtime), 'llm.unauthorized'));
  // A deleted secret: the provider names what to set, before any request.
  store.delete('team-key');
  loaded = await load();
  const missing = await askError(runtime);
  assert.equal((missing as { code?: string }).code, 'config.missing_secret');
  assert.match((missing as Error).message, /the secret "team-key"/);
});

test('every key read at load is fed to the redactor: configured references, key variables, the implicit provider', async () => {
  const { root, globalFile } = await folder(
    `${cloudA('{env:TEAM_KEY}')}[llm.providers.router]\ntype = "openrouter"\n[embedding]\nprovider = "cloud_a"\n`,
  );
  const redactor = new Redactor();
  const env = { TEAM_KEY: 'sk-team-0001', OPENROUTER_API_KEY: 'sk-or-0002', CLOUD_A_API_KEY: 'sk-embed-0003' };
  const loaded = await loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env, trusted: true, redactor });
  assert.deepEqual(loaded.keys, { llm: { work: 'sk-team-0001', router: 'sk-or-0002' }, embedding: 'sk-embed-0003' });
  for (const key of Object.values(env)) assert.equal(redactor.redact(`x ${key} y`), 'x «redacted» y');
  // Keys never sit in the config object (`hearth config` prints references).
  assert.doesNotMatch(JSON.stringify(loaded.config), /sk-team-0001|sk-or-0002|sk-embed-0003/);

  const implicit = await folder('[chat]\nprovider = "anthropic"\n');
  const chat = await loadConfig({ workspaceRoot: implicit.root, globalConfigPath: implicit.globalFile, env: { ANTHROPIC_API_KEY: 'sk-ant-4' }, trusted: true });
  assert.deepEqual(chat.keys.llm, { chat: 'sk-ant-4' });
});

test('an untrusted workspace cannot point a key at a variable of its choosing: the trust filter runs before keys are read', async () => {
  const { root, globalFile } = await folder(cloudA(), `[llm.providers.work]\napi_key = "{env:SSH_AUTH_SOCK}"\n`);
  const env = { CLOUD_A_API_KEY: GOOD_KEY, SSH_AUTH_SOCK: '/tmp/agent.sock' };
  const untrusted = await loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env, trusted: false });
  assert.equal(untrusted.keys.llm.work, GOOD_KEY);
  assert.ok(untrusted.problems.some((p) => p.code === 'config.untrusted_key'));
  const trusted = await loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env, trusted: true });
  assert.equal(trusted.keys.llm.work, '/tmp/agent.sock');
});

test('LOCAL_RUNNER_HOST is applied once, by config: the runner provider gets the resolved endpoint', async () => {
  const { root, globalFile } = await folder('[llm]\ndefault = "local"\n[llm.providers.local]\ntype = "ollama"\n');
  const env: NodeJS.ProcessEnv = { OLLAMA_HOST: '0.0.0.0:7777' };
  const loaded = await loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env, trusted: true });
  const runtime = new LlmRuntime(() => loaded, { maxRetries: 0 });
  assert.equal(runtime.selection.current().endpoint, 'http://127.0.0.1:7777');
  env.LOCAL_RUNNER_HOST = 'elsewhere:1';
  assert.equal((runtime.provider() as unknown as { host: string }).host, 'http://127.0.0.1:7777', 'the provider does not read the variable');
});

test('a secret store that never answers (a locked keyring) does not stall loading: the key counts as unset, with a warning', async () => {
  const { root, globalFile } = await folder(cloudA('{secret:team-key}'));
  const hung = { get: () => new Promise<string | undefined>(() => {}) };
  const loaded = await loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env: {}, trusted: true, secrets: hung, redactor: new Redactor(), secretTimeoutMs: 20 });
  assert.equal(loaded.keys.llm.work, undefined);
  assert.deepEqual(loaded.problems.map((p) => [p.code, p.keyPath, p.severity]), [['config.secret_unavailable', 'secrets.team-key', 'warning']]);
  const runtime = new LlmRuntime(() => loaded, { maxRetries: 0 });
  assert.equal(((await askError(runtime)) as { code?: string }).code, 'config.missing_secret');
  // A keychain that throws falls back to the variable of that name, as the CLI reads it.
  const broken = { get: async (): Promise<string | undefined> => { throw new Error('keychain locked'); } };
  const fallback = await loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env: { 'team-key': GOOD_KEY }, trusted: true, secrets: broken });
  assert.equal(fallback.keys.llm.work, GOOD_KEY);
  assert.deepEqual(fallback.problems, []);
});

test('a provider without its key fails with config.missing_secret, and both the CLI and the editor offer a remedy for it', async () => {
  const { llmRemedy } = await import('../../../src/core/agents/internal/llmRemedy');
  const { editorRemedy } = await import('../../../src/core/chat/editorRemedies');
  const { root, globalFile } = await folder(cloudA());
  const loaded = await loadConfig({ workspaceRoot: root, globalConfigPath: globalFile, env: {}, trusted: true });
  const error = (await askError(new LlmRuntime(() => loaded, { maxRetries: 0 }))) as { code: string; message: string };
  assert.equal(error.code, 'config.missing_secret');
  assert.match(error.message, /CLOUD_A_API_KEY/);
  assert.match(llmRemedy(error.code) ?? '', /environment variable/);
  assert.match(editorRemedy(error.code) ?? '', /Hearth: Set API Key/);
});
