// A model picked in a workspace survives a window reload (issue 29): a new ModelSelection and
// RememberedModel over the same workspace state, as after a reload, come back to the picked model,
// until the configured default changes and the configuration wins. Real loader, real selection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type LoadedConfig } from '../../../src/core/config/load';
import { ModelSelection } from '../../../src/core/llm/modelSelection';
import { configuredModelId, RememberedModel, REMEMBERED_MODEL_KEY } from '../../../src/core/chat/rememberedModel';
import { silentLogger } from '../../../src/core/host';

const TOML = (model: string) => `[llm]
default = "local"

[llm.providers.local]
type = "ollama"
default_model = "${model}"

[llm.providers.cloud]
type = "openai"
api_key = "{env:X_KEY}"
default_model = "gpt-4o-mini"
`;

/** VS Code's workspaceState as the extension host keeps it across reloads: a map that outlives the window. */
function workspaceState() {
  const values = new Map<string, unknown>();
  return { values, get: <T>(key: string) => values.get(key) as T | undefined, update: async (key: string, value: unknown) => void (value === undefined ? values.delete(key) : values.set(key, value)) };
}

async function setup() {
  const root = await mkdtemp(join(tmpdir(), 'hearth-remember-'));
  await mkdir(join(root, '.hearth'));
  const file = join(root, '.hearth', 'config.toml');
  await writeFile(file, TOML('llama3.2'));
  const load = () => loadConfig({ trusted: true, workspaceRoot: root, env: {}, globalConfigPath: join(root, 'none.toml') });
  return { root, file, load, done: () => rm(root, { recursive: true, force: true }) };
}

/** One window: a selection over the current config and the memory over the shared state, after its first config load. */
function windowOver(state: ReturnType<typeof workspaceState>, config: { loaded: LoadedConfig }) {
  const selection = new ModelSelection(() => config.loaded);
  const memory = new RememberedModel({ selection, configuredId: () => configuredModelId(config.loaded), storage: state, log: silentLogger });
  memory.configLoaded();
  return { selection, memory };
}

test('a switch survives a reload; a changed configured default wins and is not overridden again', async () => {
  const ws = await setup();
  try {
    const state = workspaceState();
    const config = { loaded: await ws.load() };
    const first = windowOver(state, config);
    assert.equal(first.selection.currentId(), 'local/llama3.2');
    first.selection.switchTo('cloud/gpt-4o');
    await Promise.resolve();
    first.memory.dispose();

    // The reload: a fresh selection (no override) over the same workspace state.
    const second = windowOver(state, config);
    assert.equal(second.selection.currentId(), 'cloud/gpt-4o');

    // The configured default changes (the file edited): the configuration wins, now and after the next reload.
    await writeFile(ws.file, TOML('qwen2.5:0.5b'));
    config.loaded = await ws.load();
    second.memory.configLoaded();
    assert.equal(second.selection.currentId(), 'local/qwen2.5:0.5b');
    await Promise.resolve();
    assert.equal(state.values.has(REMEMBERED_MODEL_KEY), false);
    second.memory.dispose();
    assert.equal(windowOver(state, config).selection.currentId(), 'local/qwen2.5:0.5b');
  } finally {
    await ws.done();
  }
});

test('a reload with the config edited while the window was closed does not restore the old pick', async () => {
  const ws = await setup();
  try {
    const state = workspaceState();
    const config = { loaded: await ws.load() };
    const first = windowOver(state, config);
    first.selection.switchTo('local/llama3.1:8b');
    await Promise.resolve();
    first.memory.dispose();
    await writeFile(ws.file, TOML('qwen2.5:0.5b'));
    config.loaded = await ws.load();
    assert.equal(windowOver(state, config).selection.currentId(), 'local/qwen2.5:0.5b');
  } finally {
    await ws.done();
  }
});

test('a remembered provider that is no longer configured is dropped, not an error', async () => {
  const ws = await setup();
  try {
    const state = workspaceState();
    const config = { loaded: await ws.load() };
    await state.update(REMEMBERED_MODEL_KEY, { id: 'gone/model', provider: 'gone', over: 'local/llama3.2' });
    assert.equal(windowOver(state, config).selection.currentId(), 'local/llama3.2');
    await Promise.resolve();
    assert.equal(state.values.has(REMEMBERED_MODEL_KEY), false);
  } finally {
    await ws.done();
  }
});

test('clearing the override (the config decides again) forgets the pick', async () => {
  const ws = await setup();
  try {
    const state = workspaceState();
    const config = { loaded: await ws.load() };
    const first = windowOver(state, config);
    first.selection.switchTo('cloud/gpt-4o');
    first.selection.clear();
    await Promise.resolve();
    assert.equal(windowOver(state, config).selection.currentId(), 'local/llama3.2');
  } finally {
    await ws.done();
  }
});
