import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isHearthError } from '../../../src/core/errors';
import { Redactor } from '../../../src/core/logging/redactingLogger';
import { apiKeyEnvHint, MissingSecretError, parseSecretReference, resolveSecret } from '../../../src/core/config/resolveSecret';

const env = { MY_KEY: 'sk-from-env-123', EMPTY: '', NAMED_SECRET: 'from-env-fallback' };

test('{env:VAR} reads the variable; unset or empty gives undefined', async () => {
  assert.equal(await resolveSecret('{env:MY_KEY}', { env }), 'sk-from-env-123');
  assert.equal(await resolveSecret('{env: MY_KEY }', { env }), 'sk-from-env-123');
  assert.equal(await resolveSecret('{env:NOPE}', { env }), undefined);
  assert.equal(await resolveSecret('{env:EMPTY}', { env }), undefined);
});

test('{secret:NAME} reads the secret store first, then the environment variable NAME', async () => {
  const store = { get: async (name: string) => (name === 'stored' ? 'sk-stored-456' : undefined) };
  assert.equal(await resolveSecret('{secret:stored}', { env, secrets: store }), 'sk-stored-456');
  assert.equal(await resolveSecret('{secret:NAMED_SECRET}', { env, secrets: store }), 'from-env-fallback');
  assert.equal(await resolveSecret('{secret:NAMED_SECRET}', { env }), 'from-env-fallback');
  const broken = { get: async () => { throw new Error('keychain locked'); } };
  assert.equal(await resolveSecret('{secret:NAMED_SECRET}', { env, secrets: broken }), 'from-env-fallback');
  assert.equal(await resolveSecret('{secret:missing}', { env, secrets: store }), undefined);
});

test('a bare ENV_NAME is read from the environment; a literal is returned as is', async () => {
  assert.equal(await resolveSecret('MY_KEY', { env }), 'sk-from-env-123');
  assert.equal(await resolveSecret('UNSET_VAR', { env }), undefined);
  assert.equal(await resolveSecret('sk-literal-key', { env }), 'sk-literal-key');
  assert.equal(await resolveSecret('Bearer abc', { env }), 'Bearer abc');
  assert.equal(await resolveSecret(undefined, { env }), undefined);
  assert.equal(await resolveSecret('   ', { env }), undefined);
});

test('resolved values are registered with the redactor', async () => {
  const redactor = new Redactor();
  await resolveSecret('{env:MY_KEY}', { env, redactor });
  assert.equal(redactor.redact('key=sk-from-env-123'), 'key=«redacted»');
});

test('parseSecretReference classifies every form', () => {
  assert.deepEqual(parseSecretReference('{env:A_B}'), { kind: 'env', name: 'A_B' });
  assert.deepEqual(parseSecretReference('{secret:openai}'), { kind: 'secret', name: 'openai' });
  assert.deepEqual(parseSecretReference('OPENAI_API_KEY'), { kind: 'bare', name: 'OPENAI_API_KEY' });
  assert.deepEqual(parseSecretReference('sk-abc'), { kind: 'literal' });
  assert.deepEqual(parseSecretReference('lowercase_name'), { kind: 'literal' });
});

test('apiKeyEnvHint names the canonical variable, aliases included', () => {
  assert.equal(apiKeyEnvHint('cloud_a'), 'CLOUD_A_API_KEY');
  assert.equal(apiKeyEnvHint('openai'), 'CLOUD_A_API_KEY');
  assert.equal(apiKeyEnvHint('anthropic'), 'CLOUD_B_API_KEY');
  assert.equal(apiKeyEnvHint('openrouter'), 'OPENROUTER_API_KEY');
  assert.equal(apiKeyEnvHint('local_runner'), undefined);
});

test('MissingSecretError has a code and names the provider and the variable', () => {
  const plain = new MissingSecretError('work', 'cloud_a');
  assert.ok(isHearthError(plain));
  assert.equal(plain.code, 'config.missing_secret');
  assert.match(plain.message, /"work"/);
  assert.match(plain.message, /CLOUD_A_API_KEY/);
  const pointed = new MissingSecretError('work', 'cloud_b', { kind: 'env', name: 'MY_CLAUDE' });
  assert.match(pointed.message, /MY_CLAUDE/);
});

test('MissingSecretError for the implicit [chat] provider points at the variable, not at a table that does not exist', () => {
  const implicit = new MissingSecretError('chat', 'cloud_b', undefined, true);
  assert.match(implicit.message, /\[chat\] provider/);
  assert.match(implicit.message, /CLOUD_B_API_KEY/);
  assert.doesNotMatch(implicit.message, /\[llm\.providers\.chat\]/);
});

test('a key missing for the implicit [chat] provider says so when it is used', async () => {
  const { requireApiKey } = await import('../../../src/core/llm/apiKey');
  const { activeProvider } = await import('../../../src/core/llm/activeProvider');
  const { defaultConfig } = await import('../../../src/core/config/schema');
  const config = defaultConfig();
  config.chat.provider = 'cloud_b';
  assert.throws(() => requireApiKey(activeProvider(config)), (error: Error) => /\[chat\] provider/.test(error.message) && !error.message.includes('[llm.providers.chat]'));
});
