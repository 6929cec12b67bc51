// Cancellation, early exit, key sources and the runner's host precedence.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/llm/createProvider';
import { isLlmError } from '../../../src/core/llm/errors';
import { keySourceHint, requireApiKey } from '../../../src/core/llm/apiKey';
import { localRunnerHost } from '../../../src/core/llm/localRunnerProvider';
import { endpointFor, settingsFor, startMockLlm, type MockLlm } from './mockLlm';

// The whole 'long' reply takes ~3.5 s to stream (4 characters every 60 ms), so an early exit is told
// apart from a full read by a wide margin even on a loaded machine.
const LONG_REPLY = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
const EARLY_EXIT_MS = 1500;

let server: MockLlm;
before(async () => {
  server = await startMockLlm();
  server.mock.on({ userMessage: 'long' }, { content: LONG_REPLY }, { latency: 60, chunkSize: 4 });
});
after(() => server.stop());

for (const type of ['local_runner', 'cloud_a', 'cloud_b'] as const) {
  test(`${type}: the caller's abort cancels the stream with llm-cancelled, not a timeout`, async () => {
    const provider = createProvider(settingsFor(type, endpointFor(type, server.url), { apiKeyRef: 'literal-key', apiKey: 'literal-key' }), { maxRetries: 0 });
    const controller = new AbortController();
    let text = '';
    try {
      for await (const event of provider.chat([{ role: 'user', content: 'long' }], [], {}, controller.signal)) {
        if (event.type === 'text') {
          text += event.text;
          controller.abort();
        }
      }
      assert.fail('expected cancellation');
    } catch (error) {
      assert.ok(isLlmError(error, 'llm.cancelled'), String(error));
    }
    assert.ok(text.length > 0 && text.length < 20, `stopped early: "${text}"`);
  });

  test(`${type}: leaving the loop early ends the request cleanly`, async () => {
    const provider = createProvider(settingsFor(type, endpointFor(type, server.url), { apiKeyRef: 'literal-key', apiKey: 'literal-key' }), { maxRetries: 0 });
    const started = Date.now();
    for await (const event of provider.chat([{ role: 'user', content: 'long' }], [])) {
      if (event.type === 'text') break;
    }
    const took = Date.now() - started;
    assert.ok(took < EARLY_EXIT_MS, `the request ended early, not after the whole reply (${took} ms)`);
  });
}

test('the runner host is the endpoint config resolved, else loopback (LOCAL_RUNNER_HOST was applied by config)', () => {
  const s = (endpoint?: string) => settingsFor('local_runner', endpoint);
  assert.equal(localRunnerHost(s('http://10.0.0.5:11434')), 'http://10.0.0.5:11434');
  assert.equal(localRunnerHost(s(undefined)), 'http://127.0.0.1:11434');
});

test('keys: the provider uses the key resolved at load; hints name the source, never the key', () => {
  const settings = settingsFor('cloud_a', undefined, { apiKeyRef: '{env:TEAM_KEY}', apiKey: 'sk-team-0001' });
  assert.equal(requireApiKey(settings), 'sk-team-0001');
  assert.equal(keySourceHint(settings), 'the environment variable TEAM_KEY');
  assert.equal(keySourceHint(settingsFor('cloud_b', undefined, { apiKeyEnv: ['CLOUD_B_API_KEY', 'ANTHROPIC_API_KEY'] })), 'the environment variable CLOUD_B_API_KEY (or ANTHROPIC_API_KEY)');
  assert.equal(keySourceHint(settingsFor('cloud_a', undefined, { name: 'w', apiKeyRef: 'sk-literal-1' })), 'api_key in [llm.providers.w]');
  // Keyless types do not need one.
  assert.equal(requireApiKey(settingsFor('custom', 'http://127.0.0.1:1/v1')), undefined);
  // A hosted type without one names the variable, or the reference that was unset.
  assert.throws(() => requireApiKey(settingsFor('openrouter', undefined, { name: 'r', apiKeyEnv: ['OPENROUTER_API_KEY'] })), /OPENROUTER_API_KEY/);
  assert.throws(() => requireApiKey(settingsFor('cloud_a', undefined, { name: 'r', apiKeyRef: '{secret:team-key}' })), /the secret "team-key"/);
});

test('key-shaped tokens in SDK text never reach an error message', async () => {
  const { scrubForeign } = await import('../../../src/core/logging/redactor');
  assert.equal(scrubForeign('bad request for sk-proj-abcdefghijklmnop123 with Bearer abc.def'), 'bad request for «redacted» with Bearer «redacted»');
  assert.equal(scrubForeign('model not loaded'), 'model not loaded');
});
