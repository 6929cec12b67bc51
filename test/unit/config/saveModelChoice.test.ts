// Saving a model choice to the user or the workspace config (issue 29, "choices that stick and never
// break a file"): a provider defined only in the other file is copied whole (its key only as a
// reference), a credential in its endpoint refuses the save, and the saved workspace file passes the
// real `hearth config check` (a subprocess) with no global config at all.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { loadConfig } from '../../../src/core/config/load';
import { ModelChoiceRefusedError, saveModelChoice, type ConfigTarget } from '../../../src/core/config/saveModelChoice';
import { runHearth } from '../cli/runHearth';

const LITERAL_KEY = 'sk-live-literal-0123456789abcdef';
let root: string;
let n = 0;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-save-choice-'));
});
after(() => rm(root, { recursive: true, force: true }));

/** A global file and a workspace, loaded as the editor loads them. */
async function setup(globalText: string, workspaceText?: string) {
  const dir = join(root, `case${n++}`);
  const ws = join(dir, 'ws');
  await mkdir(join(ws, '.hearth'), { recursive: true });
  await mkdir(join(dir, 'xdg', 'hearth'), { recursive: true });
  const files = { global: join(dir, 'xdg', 'hearth', 'config.toml'), workspace: join(ws, '.hearth', 'config.toml') };
  await writeFile(files.global, globalText);
  if (workspaceText !== undefined) await writeFile(files.workspace, workspaceText);
  const loaded = await loadConfig({ workspaceRoot: ws, globalConfigPath: files.global, trusted: true, env: {} });
  const save = (target: ConfigTarget, provider: string, model?: string) => saveModelChoice({ provider, ...(model ? { model } : {}) }, { target, files, sources: loaded.sources });
  return { dir, ws, files, save };
}

const toml = async (file: string): Promise<any> => JSON.parse(JSON.stringify(parse(await readFile(file, 'utf8'))));

const GLOBAL = `[llm]
default = "mock"

[llm.providers.mock]
type = "openai"
endpoint = "http://127.0.0.1:9/v1"
api_key = "{env:MOCK_KEY}"
default_model = "gpt-4o-mini"
temperature = 0.2

[llm.providers.lit]
type = "anthropic"
api_key = "${LITERAL_KEY}"

[llm.providers.leaky]
type = "custom"
endpoint = "https://user:hunter2secret@llm.example/v1"
`;

test('Save to Workspace of a global-only provider copies its whole non-secret definition; hearth config check passes without the global file', async () => {
  const { dir, ws, files, save } = await setup(GLOBAL, '# team settings\nkiln_path = "."\n');
  const saved = await save('workspace', 'mock', 'gpt-4o');
  assert.equal(saved.file, files.workspace);
  const written = await toml(files.workspace);
  assert.deepEqual(written.llm, {
    default: 'mock',
    providers: { mock: { type: 'openai', endpoint: 'http://127.0.0.1:9/v1', api_key: '{env:MOCK_KEY}', default_model: 'gpt-4o', temperature: 0.2 } },
  });
  assert.match(await readFile(files.workspace, 'utf8'), /^# team settings\n/, 'comments survive');
  assert.ok(saved.notes.some((note) => note.includes('copied')), saved.notes.join('\n'));

  // The real CLI, as a teammate without any global config runs it.
  const empty = join(dir, 'nobody');
  await mkdir(empty, { recursive: true });
  const check = await runHearth(['config', 'check'], { cwd: ws, env: { HOME: empty, XDG_CONFIG_HOME: join(empty, 'xdg'), HEARTH_TRUST: '1' } });
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.doesNotMatch(check.stdout, /error/);
  const effective = await runHearth(['config', '--json'], { cwd: ws, env: { HOME: empty, XDG_CONFIG_HOME: join(empty, 'xdg'), HEARTH_TRUST: '1' } });
  assert.equal(JSON.parse(effective.stdout).config.llm.providers.mock.type, 'cloud_a');
});

test('a literal key is never copied: the provider is, with a note saying what a teammate sets', async () => {
  const { files, save } = await setup(GLOBAL);
  const saved = await save('workspace', 'lit', 'claude-x');
  const text = await readFile(files.workspace, 'utf8');
  assert.ok(!text.includes(LITERAL_KEY), text);
  assert.deepEqual((await toml(files.workspace)).llm.providers.lit, { type: 'anthropic', default_model: 'claude-x' });
  assert.ok(saved.notes.some((note) => note.includes('literal key') && note.includes('CLOUD_B_API_KEY')), saved.notes.join('\n'));
});

test('an endpoint carrying a credential refuses the save with the reason, masked, and writes nothing', async () => {
  const { files, save } = await setup(GLOBAL, 'kiln_path = "."\n');
  await assert.rejects(save('workspace', 'leaky', 'm'), (error: unknown) => {
    assert.ok(error instanceof ModelChoiceRefusedError);
    assert.equal(error.code, 'config.save_refused');
    assert.match(error.message, /credential/);
    assert.ok(!error.message.includes('hunter2secret'), error.message);
    return true;
  });
  assert.equal(await readFile(files.workspace, 'utf8'), 'kiln_path = "."\n');
});

test('a workspace that already defines the provider gets only the choice', async () => {
  const { files, save } = await setup(GLOBAL, '[llm.providers.mock]\ntype = "openai"\nendpoint = "http://team.example/v1"\n');
  await save('workspace', 'mock', 'gpt-4o');
  assert.deepEqual((await toml(files.workspace)).llm, { default: 'mock', providers: { mock: { type: 'openai', endpoint: 'http://team.example/v1', default_model: 'gpt-4o' } } });
});

test('a partial table left by an earlier save is completed, not duplicated', async () => {
  // What the old "Save to Workspace" wrote: a table without `type`, an error for everyone else.
  const { files, save } = await setup(GLOBAL, '[llm]\ndefault = "mock"\n\n[llm.providers.mock]\ndefault_model = "old"\n');
  await save('workspace', 'mock', 'gpt-4o');
  const written = await toml(files.workspace);
  assert.equal(written.llm.providers.mock.type, 'openai');
  assert.equal(written.llm.providers.mock.default_model, 'gpt-4o');
  assert.equal(written.llm.providers.mock.endpoint, 'http://127.0.0.1:9/v1');
});

test('Save to User config of a workspace-only provider copies it into the user file, and says the workspace default wins here', async () => {
  const { files, save } = await setup('[chat]\ntemperature = 0.5\n', '[llm]\ndefault = "team"\n\n[llm.providers.team]\ntype = "local_runner"\nendpoint = "http://127.0.0.1:11434"\n');
  const saved = await save('user', 'team', 'qwen2.5:0.5b');
  const written = await toml(files.global);
  assert.deepEqual(written.llm, { default: 'team', providers: { team: { type: 'local_runner', endpoint: 'http://127.0.0.1:11434', default_model: 'qwen2.5:0.5b' } } });
  assert.equal(written.chat.temperature, 0.5);
  assert.ok(saved.notes.some((note) => note.includes('wins in this workspace')), saved.notes.join('\n'));
});

test('a provider neither file defines is refused, the file not created', async () => {
  const { files, save } = await setup('');
  await assert.rejects(save('workspace', 'ghost', 'm'), ModelChoiceRefusedError);
  assert.equal(existsSync(files.workspace), false);
});

test('the implicit [chat] provider saves [chat].model, with the type the other file gave it', async () => {
  const dir = join(root, `case${n++}`);
  const ws = join(dir, 'ws');
  await mkdir(join(ws, '.hearth'), { recursive: true });
  const files = { global: join(dir, 'global.toml'), workspace: join(ws, '.hearth', 'config.toml') };
  await writeFile(files.global, '[chat]\nprovider = "openai"\nendpoint = "http://127.0.0.1:9/v1"\n');
  const loaded = await loadConfig({ workspaceRoot: ws, globalConfigPath: files.global, trusted: true, env: {} });
  await saveModelChoice({ provider: 'chat', model: 'gpt-4o', implicit: true }, { target: 'workspace', files, sources: loaded.sources });
  assert.deepEqual((await toml(files.workspace)).chat, { provider: 'openai', endpoint: 'http://127.0.0.1:9/v1', model: 'gpt-4o' });
});
