import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HearthConfigSchema } from '../../../src/core/config/schema';
import { Redactor, REDACTED } from '../../../src/core/logging/redactingLogger';
import { registerConfigSecrets } from '../../../src/core/config/configSecrets';

test('every secret the config reaches is redacted; harmless env values are not', async () => {
  const config = HearthConfigSchema.parse({
    llm: {
      default: 'a',
      providers: {
        a: { type: 'cloud_a', api_key: '{env:WORK_KEY}' },
        b: { type: 'cloud_b', api_key: '{secret:anthropic-key}' },
        c: { type: 'openrouter', api_key: 'literal-key-1234' },
      },
    },
    mcp: {
      servers: [
        { name: 's', prefix: 's_', transport: { type: 'stdio', command: 'x', env: { GITHUB_TOKEN: 'ghp_literaltoken', MODE: 'production', REF: '{env:OTHER_SECRET}' } } },
        { name: 'h', prefix: 'h_', transport: { type: 'http', url: 'http://127.0.0.1:1/mcp', auth_header: 'Bearer {env:HTTP_TOKEN}' } },
      ],
    },
    acp: { agents: { x: { env: { ANTHROPIC_API_KEY: '{env:AGENT_KEY}' } } } },
  });
  const env = {
    WORK_KEY: 'sk-work-0001',
    OTHER_SECRET: 'other-secret-0002',
    HTTP_TOKEN: 'http-token-0003',
    AGENT_KEY: 'agent-key-0004',
    CLOUD_B_API_KEY: 'cloud-b-0005',
    ZAI_API_KEY: 'zai-key-0006',
  };
  const redactor = new Redactor();
  const stored = new Map([['anthropic-key', 'from-secret-storage-0007']]);
  await registerConfigSecrets(config, { env, secrets: { get: async (name) => stored.get(name) }, redactor });

  const line = [...Object.values(env), 'from-secret-storage-0007', 'literal-key-1234', 'ghp_literaltoken', 'production'].join(' ');
  const redacted = redactor.redact(line);
  for (const secret of [...Object.values(env), 'from-secret-storage-0007', 'literal-key-1234', 'ghp_literaltoken']) {
    assert.equal(redacted.includes(secret), false, `${secret} leaked`);
  }
  assert.ok(redacted.endsWith(' production'));
  assert.ok(redacted.includes(REDACTED));
});

test('a failing secret store does not stop registration', async () => {
  const config = HearthConfigSchema.parse({ llm: { default: 'a', providers: { a: { type: 'cloud_a', api_key: '{secret:X_KEY}' } } } });
  const redactor = new Redactor();
  await registerConfigSecrets(config, { env: { X_KEY: 'env-fallback-value' }, secrets: { get: async () => { throw new Error('keychain locked'); } }, redactor });
  assert.equal(redactor.redact('env-fallback-value'), REDACTED);
});
