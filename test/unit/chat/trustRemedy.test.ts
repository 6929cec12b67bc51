// A chat error in Restricted Mode whose cause is a withheld workspace key (the provider's endpoint or
// key waits for Workspace Trust, so the defaults were used): the error box's remedy says so, instead
// of "fix the endpoint" to a user whose endpoint is set. The real loader decides what is withheld.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type LoadedConfig } from '../../../src/core/config/load';
import { ChatController, type ChatModels } from '../../../src/core/chat/chatController';
import { editorRemedy, providerKeysWaitingForTrust } from '../../../src/core/chat/editorRemedies';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { HostMessage } from '../../../src/core/chat/protocol';
import { silentLogger } from '../../../src/core/host';
import { FakeCatalog, MemoryStorage, until } from './fakeCatalog';

const WORKSPACE = `[llm]
default = "local"

[llm.providers.local]
type = "ollama"
endpoint = "http://10.1.2.3:11434"

[llm.providers.cloud]
type = "openai"
endpoint = "https://llm.example.com/v1"
api_key = "{env:CLOUD_KEY}"
`;

async function load(trusted: boolean): Promise<LoadedConfig> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-trust-remedy-'));
  try {
    await mkdir(join(root, '.hearth'));
    await writeFile(join(root, '.hearth', 'config.toml'), WORKSPACE);
    return await loadConfig({ workspaceRoot: root, globalConfigPath: join(root, 'none.toml'), env: { CLOUD_KEY: 'sk-x' }, trusted });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('only the chat provider\'s own withheld keys (and [chat]) count', async () => {
  const untrusted = await load(false);
  assert.deepEqual(providerKeysWaitingForTrust(untrusted.withheld, 'local'), ['llm.providers.local.endpoint']);
  assert.deepEqual(providerKeysWaitingForTrust(untrusted.withheld, 'cloud').sort(), ['llm.providers.cloud.api_key', 'llm.providers.cloud.endpoint']);
  assert.deepEqual(providerKeysWaitingForTrust([{ keyPath: 'llm.providers.localhost.endpoint' }, { keyPath: 'mcp.servers[0]' }], 'local'), [], 'a prefix of another name or a tool server is not the chat provider');
  assert.deepEqual(providerKeysWaitingForTrust([{ keyPath: 'chat.endpoint' }], 'chat'), ['chat.endpoint']);
  assert.deepEqual(providerKeysWaitingForTrust((await load(true)).withheld, 'local'), [], 'a trusted folder withholds nothing');
});

test('the remedy names the waiting key and trust for connection and key errors; other errors keep theirs', () => {
  const waiting = ['llm.providers.local.endpoint'];
  const remedy = editorRemedy('llm.unreachable', waiting)!;
  assert.match(remedy, /Restricted Mode/);
  assert.match(remedy, /`llm\.providers\.local\.endpoint`/);
  assert.match(remedy, /Manage Workspace Trust/);
  assert.doesNotMatch(remedy, /fix the endpoint/);
  assert.match(editorRemedy('llm.unauthorized', ['llm.providers.cloud.api_key'])!, /`llm\.providers\.cloud\.api_key` in its \.hearth\/config\.toml waits for Workspace Trust/);
  assert.match(editorRemedy('llm.unreachable', [])!, /fix the endpoint/, 'nothing withheld: the usual remedy');
  assert.match(editorRemedy('llm.timeout', waiting)!, /timeout_secs/, 'a time-out is not explained by trust');
});

test('in the chat panel, an unreachable provider in Restricted Mode shows the trust remedy', async () => {
  const untrusted = await load(false);
  const posts: HostMessage[] = [];
  const models: ChatModels = {
    currentId: () => 'local/llama3.2',
    switchTo: async (id) => id,
    list: async () => ({ ids: [], errors: [] }),
    openSwitcher: async () => {},
    waitingForTrust: () => providerKeysWaitingForTrust(untrusted.withheld, 'local'),
  };
  const controller = new ChatController({
    catalog: new FakeCatalog(),
    post: (m) => posts.push(m),
    store: new HistoryStore(new MemoryStorage()),
    models,
    notes: { activeNote: () => undefined, open: async () => {}, confine: async (path) => ({ absolute: path, display: path }), read: async () => '' },
    confirm: async () => true,
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: false }),
    cwd: () => '/ws',
    log: silentLogger,
  });
  await controller.handle({ type: 'send', text: 'crash' });
  const error = await until(() => posts.flatMap((m) => (m.type === 'event' && m.event.type === 'error' ? [m.event] : [])).at(-1), 'the error event');
  assert.equal(error.type === 'error' && error.code, 'llm.unreachable');
  assert.match(error.type === 'error' ? (error.remedy ?? '') : '', /Restricted Mode: `llm\.providers\.local\.endpoint`/);
  await controller.dispose();
});
