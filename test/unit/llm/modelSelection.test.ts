// Session switching and persisting, against the real loader and the real TOML editor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type LoadedConfig } from '../../../src/core/config/load';
import { ModelSelection } from '../../../src/core/llm/modelSelection';

const WORKSPACE_TOML = `# Team settings — keep this comment
[llm]
default = "local" # the laptop runner

[llm.providers.local]
type = "ollama"
default_model = "llama3.2"

[llm.providers.router]
type = "openrouter"
api_key = "{env:OPENROUTER_API_KEY}"  # never a literal here
`;

async function workspace(toml: string, globalToml = ''): Promise<{ root: string; file: string; load: () => Promise<LoadedConfig>; done: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-sel-'));
  await mkdir(join(root, '.hearth'));
  const file = join(root, '.hearth', 'config.toml');
  await writeFile(file, toml);
  const globalPath = join(root, 'global.toml');
  await writeFile(globalPath, globalToml);
  return { root, file, load: () => loadConfig({ trusted: true, workspaceRoot: root, env: {}, globalConfigPath: globalPath }), done: () => rm(root, { recursive: true, force: true }) };
}

test('switching lasts for the session; persisting writes [llm].default and default_model, keeping comments', async () => {
  const ws = await workspace(WORKSPACE_TOML);
  try {
    let loaded = await ws.load();
    const selection = new ModelSelection(() => loaded);
    assert.equal(selection.currentId(), 'local/llama3.2');
    const seen: string[] = [];
    selection.onDidChange((p) => seen.push(`${p.name}/${p.model}`));

    selection.switchTo('qwen2.5:0.5b');
    assert.equal(selection.currentId(), 'local/qwen2.5:0.5b');
    selection.switchTo('router/anthropic/claude-sonnet-4.5');
    const current = selection.current();
    assert.equal(current.name, 'router');
    assert.equal(current.type, 'openrouter');
    assert.equal(current.model, 'anthropic/claude-sonnet-4.5');
    assert.equal(current.apiKeyRef, '{env:OPENROUTER_API_KEY}');
    assert.deepEqual(seen, ['local/qwen2.5:0.5b', 'router/anthropic/claude-sonnet-4.5']);
    assert.equal(selection.providers().find((p) => p.name === 'router')?.model, 'anthropic/claude-sonnet-4.5');

    // The file is untouched until persist.
    assert.equal(await readFile(ws.file, 'utf8'), WORKSPACE_TOML);
    const result = await selection.persist(ws.file);
    assert.deepEqual(result.keys, ['llm.default', 'llm.providers.router.default_model']);
    const text = await readFile(ws.file, 'utf8');
    assert.match(text, /# Team settings — keep this comment/);
    assert.match(text, /default = "router" # the laptop runner/);
    assert.match(text, /api_key = "\{env:OPENROUTER_API_KEY\}"  # never a literal here/);

    // A fresh session (new selection, reloaded config) starts on the persisted choice.
    loaded = await ws.load();
    assert.deepEqual(loaded.problems, []);
    assert.equal(new ModelSelection(() => loaded).currentId(), 'router/anthropic/claude-sonnet-4.5');

    selection.clear();
    assert.equal(selection.currentId(), 'router/anthropic/claude-sonnet-4.5');
  } finally {
    await ws.done();
  }
});

test('a prefix that names no provider is part of the model name', async () => {
  const ws = await workspace(WORKSPACE_TOML);
  try {
    const loaded = await ws.load();
    const selection = new ModelSelection(() => loaded);
    // "nope/x" is not a provider, so it is a model name of the current provider (slashes are allowed).
    selection.switchTo('nope/x');
    assert.equal(selection.currentId(), 'local/nope/x');
    selection.clear();
    const noProviders = new ModelSelection(() => loaded);
    assert.doesNotThrow(() => noProviders.switchTo('local/'));
    assert.equal(noProviders.currentId(), 'local/llama3.2');
  } finally {
    await ws.done();
  }
});

test('with the implicit [chat] provider, persist writes [chat].model', async () => {
  const ws = await workspace('# mine\n[chat]\nprovider = "local_runner"\nmodel = "llama3.2" # small\n');
  try {
    let loaded = await ws.load();
    const selection = new ModelSelection(() => loaded);
    assert.equal(selection.currentId(), 'chat/llama3.2');
    selection.switchTo('chat/qwen2.5:0.5b');
    const result = await selection.persist(ws.file);
    assert.deepEqual(result.keys, ['chat.model']);
    assert.equal(await readFile(ws.file, 'utf8'), '# mine\n[chat]\nprovider = "local_runner"\nmodel = "qwen2.5:0.5b" # small\n');
    loaded = await ws.load();
    assert.equal(new ModelSelection(() => loaded).currentId(), 'chat/qwen2.5:0.5b');
  } finally {
    await ws.done();
  }
});

test('a provider table from the global file: persist adds only the workspace keys, and an explicit [chat].model follows', async () => {
  const ws = await workspace('[chat]\nmodel = "pinned"\n', '[llm]\ndefault = "a"\n[llm.providers.a]\ntype = "ollama"\n[llm.providers.b]\ntype = "openai"\napi_key = "{env:K}"\n');
  try {
    let loaded = await ws.load();
    const selection = new ModelSelection(() => loaded);
    assert.equal(selection.currentId(), 'a/pinned');
    selection.switchTo('b/gpt-4o-mini');
    await selection.persist(ws.file);
    loaded = await ws.load();
    assert.deepEqual(loaded.problems, []);
    assert.equal(new ModelSelection(() => loaded).currentId(), 'b/gpt-4o-mini');
  } finally {
    await ws.done();
  }
});

test('with the implicit provider, bare names and chat/ switch its model', async () => {
  const ws = await workspace('[chat]\nprovider = "ollama"\n');
  try {
    const loaded = await ws.load();
    const selection = new ModelSelection(() => loaded);
    assert.equal(selection.currentId(), 'chat/llama3.2');
    assert.doesNotThrow(() => selection.switchTo('chat/'));
    selection.switchTo('llama3.1:8b');
    assert.equal(selection.currentId(), 'chat/llama3.1:8b');
    selection.switchTo('chat/');
    assert.equal(selection.currentId(), 'chat/llama3.2');
  } finally {
    await ws.done();
  }
});

test('with the implicit provider, the status bar\'s label (its type, local_runner/model) switches it too', async () => {
  const ws = await workspace('[chat]\nprovider = "ollama"\n');
  try {
    const loaded = await ws.load();
    const selection = new ModelSelection(() => loaded);
    selection.switchTo('local_runner/qwen2.5:0.5b');
    assert.equal(selection.currentId(), 'chat/qwen2.5:0.5b', 'not a model named "local_runner/qwen2.5:0.5b"');
    selection.switchTo('local_runner/');
    assert.equal(selection.currentId(), 'chat/llama3.2');
    // Another type's name is still part of the model name (a local runner's hf.co/… or library/…).
    selection.switchTo('cloud_a/gpt-4o');
    assert.equal(selection.currentId(), 'chat/cloud_a/gpt-4o');
  } finally {
    await ws.done();
  }
});

test('with [llm.providers], a provider type is no alias: "local_runner/x" is a model of the current provider', async () => {
  const ws = await workspace(WORKSPACE_TOML);
  try {
    const loaded = await ws.load();
    const selection = new ModelSelection(() => loaded);
    selection.switchTo('local_runner/x');
    assert.equal(selection.currentId(), 'local/local_runner/x');
  } finally {
    await ws.done();
  }
});
