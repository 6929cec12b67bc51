// How a failed `@hearth` request ends, on real provider failures (the OpenAI-format provider against
// a closed port and against aimock with a key check): an unreachable or unauthorized provider says
// what failed and what to do, never the key; a cancelled request — by the stop button, or a
// provider that stopped because of it — ends quietly; a failure of the Chat view's model points at
// the model picker.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { participantFailure } from '../../../../src/core/chat/participant/participantFailure';
import { createProvider } from '../../../../src/core/llm/createProvider';
import { respondForEditor } from '../../../../src/core/llm/lmResponse';
import { Redactor } from '../../../../src/core/logging/redactor';
import { closedPort, endpointFor, GOOD_KEY, settingsFor, startMockLlm, type MockLlm } from '../../llm/mockLlm';

const KEY = 'sk-participant-secret-98765';
let server: MockLlm;
const redactor = new Redactor();
redactor.add(KEY);
const redact = (text: string) => redactor.redact(text);

before(async () => {
  server = await startMockLlm({ auth: true });
  server.mock.on({ userMessage: 'long' }, { content: Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ') }, { latency: 40, chunkSize: 4 });
});
after(() => server.stop());

const provider = (endpoint: string, key = KEY) => createProvider(settingsFor('cloud_a', endpoint, { name: 'alpha', apiKeyRef: '{env:K}', apiKey: key }), { maxRetries: 0 });
const ask = (text: string) => ({ messages: [{ role: 'user' as const, parts: [{ kind: 'text' as const, value: text }] }], model: 'gpt-4o' });
/** The error a Hearth model's request fails with, as the participant catches it. */
async function failureOf(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  assert.fail('the request did not fail');
}

test('an unreachable provider: what failed (the provider, its endpoint), then start it or pick another model; no key', async () => {
  const error = await failureOf(respondForEditor(provider(`http://127.0.0.1:${await closedPort()}/v1`), ask('hi'), () => undefined, new AbortController().signal, redactor));
  const failure = participantFailure(error, { cancelled: false, fromModel: false, redact });
  assert.ok(!failure.cancelled);
  assert.match(failure.message, /^Hearth \(alpha\): .*127\.0\.0\.1/);
  assert.match(failure.message, /Start the model's provider \(or correct its endpoint\), or pick another model in the Chat view's model picker, then ask again\.$/);
  assert.doesNotMatch(failure.message, new RegExp(KEY));
});

test('a wrong key: the key check is the remedy, and the key is not in the message', async () => {
  const wrong = 'sk-wrong-participant-key-55555';
  redactor.add(wrong);
  const error = await failureOf(respondForEditor(provider(endpointFor('cloud_a', server.url), wrong), ask('hi'), () => undefined, new AbortController().signal, redactor));
  const failure = participantFailure(error, { cancelled: false, fromModel: false, redact });
  assert.ok(!failure.cancelled);
  assert.match(failure.message, /Check the provider's key \("Hearth: Check Configuration"\)/);
  assert.doesNotMatch(failure.message, /sk-wrong-participant-key/);
});

test('cancelled mid-stream: the provider stops and the request ends quietly, with nothing in the error box', async () => {
  const controller = new AbortController();
  let parts = 0;
  const run = respondForEditor(provider(endpointFor('cloud_a', server.url), GOOD_KEY), ask('long'), () => {
    if (++parts === 2) controller.abort();
  }, controller.signal, redactor);
  const error = await failureOf(Promise.resolve(run).then(() => {
    // The provider ended quietly; the Chat view's model then rejects its stream as cancelled.
    throw new Error('Canceled');
  }));
  assert.ok(parts >= 2 && parts < 20, `stopped early (${parts} parts)`);
  assert.deepEqual(participantFailure(error, { cancelled: true, fromModel: true, redact }), { cancelled: true });
});

test('a failure of the Chat view\'s model points at the model picker; an empty or secret-bearing message is made readable and scrubbed', () => {
  const model = participantFailure(new Error('Language model unavailable'), { cancelled: false, fromModel: true, redact });
  assert.equal(model.cancelled, undefined);
  assert.match((model as { message: string }).message, /^Language model unavailable Pick another model in the Chat view's model picker/);
  const empty = participantFailure(new Error(''), { cancelled: false, fromModel: false, redact });
  assert.match((empty as { message: string }).message, /^The request failed\. Check the model's provider/);
  const leaky = participantFailure(new Error(`upstream said: bad key ${KEY}`), { cancelled: false, fromModel: false, redact });
  assert.doesNotMatch((leaky as { message: string }).message, new RegExp(KEY));
});
