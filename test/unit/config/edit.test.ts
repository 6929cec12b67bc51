import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { ConfigEditError, editTomlText, setConfigValue } from '../../../src/core/config/edit';

/** smol-toml builds null-prototype tables; compare plain data. */
const toml = (text: string): any => JSON.parse(JSON.stringify(parse(text)));

const base = `# Hearth workspace config
kiln_path = "notes"   # where the notes live

[chat]
# keep it cool
temperature = 0.2 # trailing comment

[llm]
default = "local"   # the active one

[llm.providers.local]
type = "local_runner"  # runner on this box
default_model = "llama3.2"

[llm.providers.work]
type = "cloud_a"
`;

test('replacing a value keeps every comment and all other lines byte for byte', () => {
  const out = editTomlText(base, ['llm', 'default'], 'work');
  assert.equal(out, base.replace('default = "local"   # the active one', 'default = "work"   # the active one'));
  const model = editTomlText(base, ['llm', 'providers', 'local', 'default_model'], 'qwen2.5:0.5b');
  assert.equal(model, base.replace('default_model = "llama3.2"', 'default_model = "qwen2.5:0.5b"'));
  const temp = editTomlText(base, ['chat', 'temperature'], 1.5);
  assert.equal(temp, base.replace('temperature = 0.2 # trailing comment', 'temperature = 1.5 # trailing comment'));
});

test('a missing key is inserted at the end of its own table, not of the file', () => {
  const out = editTomlText(base, ['llm', 'providers', 'work', 'default_model'], 'gpt-4o-mini');
  assert.ok(out.endsWith('type = "cloud_a"\ndefault_model = "gpt-4o-mini"\n'));
  const chat = editTomlText(base, ['chat', 'max_tokens'], 512);
  assert.ok(chat.includes('temperature = 0.2 # trailing comment\nmax_tokens = 512\n\n[llm]'));
  assert.equal((toml(chat) as any).chat.max_tokens, 512);
});

test('a missing table gets a new [header] at the end', () => {
  const out = editTomlText(base, ['llm', 'providers', 'fresh', 'default_model'], 'm1');
  assert.ok(out.startsWith(base));
  assert.ok(out.endsWith('\n[llm.providers.fresh]\ndefault_model = "m1"\n'));
});

test('dotted keys are edited where they are written', () => {
  const text = 'llm.default = "a" # pick\nllm.providers.a.type = "cloud_a"\n\n[chat]\ntemperature = 1\n';
  assert.equal(editTomlText(text, ['llm', 'default'], 'b'), text.replace('"a" # pick', '"b" # pick'));
  const inserted = editTomlText(text, ['llm', 'providers', 'a', 'default_model'], 'gpt');
  assert.ok(inserted.startsWith('llm.default = "a" # pick\nllm.providers.a.type = "cloud_a"\nllm.providers.a.default_model = "gpt"\n\n[chat]'));
  const underTable = '[llm]\nproviders.x.type = "cloud_b"\n';
  const out = editTomlText(underTable, ['llm', 'providers', 'x', 'default_model'], 'claude');
  assert.deepEqual((toml(out) as any).llm.providers.x, { type: 'cloud_b', default_model: 'claude' });
});

test('inline tables are edited inside their braces', () => {
  const text = '[llm.providers]\nw = { type = "cloud_a", default_model = "a" } # inline\n';
  const replaced = editTomlText(text, ['llm', 'providers', 'w', 'default_model'], 'b');
  assert.equal(replaced, text.replace('"a" }', '"b" }'));
  const added = editTomlText(text, ['llm', 'providers', 'w', 'endpoint'], 'http://127.0.0.1:1');
  assert.deepEqual((toml(added) as any).llm.providers.w, { type: 'cloud_a', default_model: 'a', endpoint: 'http://127.0.0.1:1' });
  assert.ok(added.endsWith('# inline\n'));
});

test('root keys go before the first table; strings are escaped', () => {
  const out = editTomlText('# top\n[chat]\ntemperature = 1\n', ['kiln_path'], 'C:\\notes "mine"');
  assert.deepEqual(toml(out), { kiln_path: 'C:\\notes "mine"', chat: { temperature: 1 } });
  assert.ok(out.startsWith('# top\nkiln_path = '));
});

test('setConfigValue creates the .hearth directory and file, and writes atomically', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-edit-'));
  try {
    const file = join(dir, '.hearth', 'config.toml');
    await setConfigValue(file, ['llm', 'default'], 'work');
    await setConfigValue(file, ['llm', 'providers', 'work', 'default_model'], 'gpt-4o');
    await setConfigValue(file, ['cli', 'verbose'], true);
    assert.deepEqual(toml(readFileSync(file, 'utf8')), { llm: { default: 'work', providers: { work: { default_model: 'gpt-4o' } } }, cli: { verbose: true } });
    assert.deepEqual(readdirSync(join(dir, '.hearth')), ['config.toml']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an edit that cannot be made safely throws a HearthError and leaves the file untouched', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-edit-'));
  try {
    const file = join(dir, 'config.toml');
    const broken = '[chat\ntemperature = 1\n';
    writeFileSync(file, broken);
    await assert.rejects(setConfigValue(file, ['llm', 'default'], 'x'), (e: unknown) => e instanceof ConfigEditError && e.code === 'config.edit_failed');
    assert.equal(readFileSync(file, 'utf8'), broken);
    // llm is a string here: setting llm.default would change the document's meaning.
    const scalar = 'llm = "oops"\n';
    writeFileSync(file, scalar);
    await assert.rejects(setConfigValue(file, ['llm', 'default'], 'x'), (e: unknown) => e instanceof ConfigEditError);
    assert.equal(readFileSync(file, 'utf8'), scalar);
    assert.equal(existsSync(join(dir, 'config.toml')), true);
    assert.deepEqual(readdirSync(dir), ['config.toml']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
