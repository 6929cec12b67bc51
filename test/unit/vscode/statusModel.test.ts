import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HearthConfigSchema } from '../../../src/core/config/schema';
import type { ConfigProblem } from '../../../src/core/config/problem';
import { statusPresentation, SHOW_PROBLEMS_COMMAND } from '../../../src/vscode/status/statusModel';

const parse = (raw: unknown) => HearthConfigSchema.parse(raw);
const problem = (severity: 'error' | 'warning', keyPath: string, message: string): ConfigProblem => ({
  file: '/w/.hearth/config.toml',
  line: 2,
  column: 1,
  keyPath,
  severity,
  code: severity === 'error' ? 'config.invalid_value' : 'config.unknown_key',
  message,
});

test('a default config shows the implicit provider type and its default model', () => {
  const status = statusPresentation({ config: parse({}), sources: {}, problems: [] });
  assert.equal(status.text, '$(flame) local_runner/llama3.2');
  assert.match(status.tooltip, /Endpoint: http:\/\/127\.0\.0\.1:11434/);
  assert.equal(status.warning, false);
});

test('a named provider shows as name/model with its endpoint in the tooltip', () => {
  const config = parse({ llm: { default: 'work', providers: { work: { type: 'openai', default_model: 'gpt-4.1', endpoint: 'http://127.0.0.1:8080/v1' } } } });
  const status = statusPresentation({ config, sources: {}, problems: [] });
  assert.equal(status.text, '$(flame) work/gpt-4.1');
  assert.match(status.tooltip, /Endpoint: http:\/\/127\.0\.0\.1:8080\/v1/);
  assert.match(status.tooltip, /cloud_a/);
});

test('a provider without a model shows only its name', () => {
  const config = parse({ llm: { default: 'c', providers: { c: { type: 'custom', endpoint: 'http://127.0.0.1:1/v1' } } } });
  assert.equal(statusPresentation({ config, sources: {}, problems: [] }).text, '$(flame) c');
});

test('errors switch to the warning state, which opens the Problems view', () => {
  const problems = [problem('error', 'chat.temperature', 'must be at most 2'), problem('warning', 'chat.tempreature', 'unknown key')];
  const status = statusPresentation({ config: parse({}), sources: {}, problems });
  assert.equal(status.text, '$(warning) Hearth: 1 config problem');
  assert.equal(status.warning, true);
  assert.equal(status.command, SHOW_PROBLEMS_COMMAND);
  assert.match(status.tooltip, /chat\.temperature: must be at most 2/);

  const two = statusPresentation({ config: parse({}), sources: {}, problems: [problems[0], problems[0]] });
  assert.equal(two.text, '$(warning) Hearth: 2 config problems');
});

test('warnings alone keep the provider text and are mentioned in the tooltip', () => {
  const status = statusPresentation({ config: parse({}), sources: {}, problems: [problem('warning', 'x', 'unknown key "x"')] });
  assert.equal(status.warning, false);
  assert.equal(status.text, '$(flame) local_runner/llama3.2');
  assert.match(status.tooltip, /1 config warning/);
});
