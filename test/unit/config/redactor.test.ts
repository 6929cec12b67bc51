// The one Redactor (issue 12 "Secrets never leave"): what it is fed from URLs, env tables and
// argument lists, what it must leave alone, and maskConfigSecrets (what `hearth config` prints).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskConfigSecrets, MASKED_SECRET } from '../../../src/core/config/maskSecrets';
import { HearthConfigSchema } from '../../../src/core/config/schema';
import { isSecretFlag, REDACTED, Redactor, scrubForeign } from '../../../src/core/logging/redactor';
import { registerConfigSecrets } from '../../../src/core/config/configSecrets';

test('URL userinfo and secret-named query values are fed; the rest of the URL is not', () => {
  const r = new Redactor();
  r.addUrl('https://alice:s3cr3t-pass@host.example/v1?api_key=qkey-1234&region=europe');
  r.addUrl('https://tok-only-user-99@git.example/repo');
  r.addUrl('not a url at all');
  const line = r.redact('alice s3cr3t-pass qkey-1234 europe tok-only-user-99 host.example');
  assert.equal(line, `alice ${REDACTED} ${REDACTED} europe ${REDACTED} host.example`);
});

test('--token / --api-key / --password-style arguments feed the value after them', () => {
  const r = new Redactor();
  r.addArgs(['--token', 'tok-value-1', '--api-key=key-value-2', '--github-token', 'gh-value-3', '--password', 'pw-value-4', '--port', '8080', '--mode', 'DEBUG']);
  assert.equal(r.redact('tok-value-1 key-value-2 gh-value-3 pw-value-4 8080 DEBUG'), `${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} 8080 DEBUG`);
  assert.equal(isSecretFlag('--keyboard'), false);
  assert.equal(isSecretFlag('--access-token=x'), true);
});

test('env tables: secret-named values are fed, MODE = "DEBUG" is not (DEBUG stays readable everywhere)', async () => {
  const r = new Redactor();
  r.addEnv({ DB_PASSWORD: 'pw-env-value', MODE: 'DEBUG', LEVEL: 'verbose' });
  assert.equal(r.redact('pw-env-value DEBUG verbose'), `${REDACTED} DEBUG verbose`);

  const config = HearthConfigSchema.parse({
    mcp: {
      servers: [
        { name: 's', prefix: 's_', transport: { type: 'stdio', command: 'x', args: ['--token', 'arg-token-77'], env: { MODE: 'DEBUG', SERVICE_TOKEN: 'svc-token-88' } } },
        { name: 'h', prefix: 'h_', transport: { type: 'http', url: 'https://user-tok-99@mcp.example/mcp', auth_header: 'Bearer literal-bearer-66' } },
      ],
    },
  });
  const fed = new Redactor();
  await registerConfigSecrets(config, { env: {}, redactor: fed });
  assert.equal(fed.redact('DEBUG arg-token-77 svc-token-88 user-tok-99 literal-bearer-66'), `DEBUG ${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED}`);
});

test('JSON-escaped and URL-encoded forms of a secret are redacted too; redactDeep keeps structure', () => {
  const r = new Redactor();
  r.add('p@ss"word/42');
  assert.equal(r.redact(JSON.stringify({ v: 'p@ss"word/42' })), `{"v":"${REDACTED}"}`);
  assert.equal(r.redact(`?k=${encodeURIComponent('p@ss"word/42')}`), `?k=${REDACTED}`);
  const deep = r.redactDeep({ a: ['x p@ss"word/42'], n: 3, ok: true, nested: { s: 'p@ss"word/42' } });
  assert.deepEqual(deep, { a: [`x ${REDACTED}`], n: 3, ok: true, nested: { s: REDACTED } });
});

test('foreign text (SDK errors): token-shaped words and auth headers go even when never registered', () => {
  assert.equal(scrubForeign('refused Authorization: Bearer abc.def-123'), `refused Authorization: Bearer ${REDACTED}`);
  assert.equal(scrubForeign('bad key sk-proj-abcdefghijklmnop'), `bad key ${REDACTED}`);
  assert.equal(scrubForeign('model not loaded'), 'model not loaded');
  const r = new Redactor();
  r.add('plain-registered-1');
  assert.equal(r.redactForeign('plain-registered-1 and Bearer xyz123'), `${REDACTED} and Bearer ${REDACTED}`);
});

test('maskConfigSecrets: env literals, credentials, URL userinfo/query and secret args masked; references as written', () => {
  const masked = maskConfigSecrets({
    llm: { providers: { p: { api_key: 'sk-literal', endpoint: 'https://u:p@h.example/v1?key=abc&x={env:Q}' }, q: { api_key: '{secret:K}' }, r: { api_key: 'MY_KEY_VAR' } } },
    transport: { env: { ODD: 'literal', REF: '{env:X}', MODE: 'DEBUG' }, args: ['--token', 'tv', '--api-key=kv', '--token', '{env:T}', '-v', 'https://a@b.example/'], auth_header: 'Bearer {env:H}' },
    other: { auth_header: 'Bearer literal' },
  });
  assert.deepEqual(masked, {
    llm: {
      providers: {
        p: { api_key: MASKED_SECRET, endpoint: `https://${MASKED_SECRET}@h.example/v1?key=${MASKED_SECRET}&x={env:Q}` },
        q: { api_key: '{secret:K}' },
        r: { api_key: 'MY_KEY_VAR' },
      },
    },
    transport: {
      env: { ODD: MASKED_SECRET, REF: '{env:X}', MODE: MASKED_SECRET },
      args: ['--token', MASKED_SECRET, `--api-key=${MASKED_SECRET}`, '--token', '{env:T}', '-v', `https://${MASKED_SECRET}@b.example/`],
      auth_header: 'Bearer {env:H}',
    },
    other: { auth_header: MASKED_SECRET },
  });
});
