import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { configJsonSchema } from '../../../src/core/config/jsonSchema';
import { defaultConfig } from '../../../src/core/config/schema';

type Json = Record<string, any>;

test('the JSON Schema covers every section, rejects unknown keys and carries the defaults', () => {
  const schema = configJsonSchema() as Json;
  const defaults = defaultConfig() as Json;
  assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(defaults).concat('kiln_path').filter((k, i, a) => a.indexOf(k) === i).sort());
  assert.equal(schema.additionalProperties, false);
  const chat = schema.properties.chat;
  assert.equal(chat.additionalProperties, false);
  assert.equal(chat.properties.temperature.default, 0.7);
  assert.equal(chat.properties.temperature.maximum, 2);
  assert.deepEqual(chat.properties.provider.enum.sort(), ['anthropic', 'cloud_a', 'cloud_b', 'local_runner', 'ollama', 'openai']);
  // Input mode: keys with defaults are not required, so an editor does not demand them.
  assert.equal(chat.required, undefined);
  const server = schema.properties.mcp.properties.servers.items;
  assert.deepEqual(server.required.sort(), ['name', 'prefix', 'transport']);
  assert.equal(new RegExp(server.properties.prefix.pattern).test('fs_'), true);
  assert.equal(new RegExp(server.properties.prefix.pattern).test('fs'), false);
  assert.deepEqual(server.properties.transport.oneOf.map((o: Json) => o.properties.type.const), ['stdio', 'sse', 'http']);
  assert.equal(schema.properties.llm.properties.providers.additionalProperties.properties.max_tokens.default, 4096);
  // The machine-dependent default is described, not baked in.
  assert.equal(schema.properties.processing.properties.parallel_workers.default, undefined);
});

test('package.json contributes the schema for both config files', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Json;
  const matches = (pkg.contributes.tomlValidation as Json[]).map((c) => [c.fileMatch, c.url]);
  assert.deepEqual(matches, [['**/.hearth/config.toml', './dist/config.schema.json'], ['**/hearth/config.toml', './dist/config.schema.json']]);
  assert.match(readFileSync('esbuild.mjs', 'utf8'), /jsonSchemaCli\.ts/);
});
