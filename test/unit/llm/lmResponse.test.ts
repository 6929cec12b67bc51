// A Hearth provider answering the editor (a `hearth` language model request) against aimock on
// loopback: text and tool calls stream back as parts; an unreachable provider fails with its code
// and no key in the message; a request cancelled mid-stream ends quietly without further parts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/llm/createProvider';
import { isLlmError } from '../../../src/core/llm/errors';
import type { LmPart } from '../../../src/core/llm/lmParts';
import { respondForEditor } from '../../../src/core/llm/lmResponse';
import { Redactor } from '../../../src/core/logging/redactingLogger';
import { closedPort, endpointFor, settingsFor, startMockLlm, type MockLlm } from './mockLlm';

const KEY = 'sk-editor-secret-123456';
const LONG_REPLY = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
let server: MockLlm;

before(async () => {
  server = await startMockLlm();
  server.mock.on({ userMessage: 'long' }, { content: LONG_REPLY }, { latency: 60, chunkSize: 4 });
  server.mock.on({ userMessage: 'tool please' }, { toolCalls: [{ id: 'c1', name: 'hearth_read_note', arguments: '{"path":"a.md"}' }] });
  server.mock.on({ userMessage: 'hi' }, { content: 'Hello from the mock.' });
});
after(() => server.stop());

const provider = (endpoint: string) => createProvider(settingsFor('cloud_a', endpoint, { name: 'alpha', apiKeyRef: '{env:K}', apiKey: KEY }), { maxRetries: 0 });
const ask = (text: string) => ({ messages: [{ role: 'user' as const, parts: [{ kind: 'text' as const, value: text }] }], model: 'gpt-4o' });

test('text streams back as text parts, with the model asked for', async () => {
  const parts: LmPart[] = [];
  await respondForEditor(provider(endpointFor('cloud_a', server.url)), ask('hi'), (part) => parts.push(part), new AbortController().signal);
  assert.equal(parts.map((p) => (p.kind === 'text' ? p.value : '')).join(''), 'Hello from the mock.');
  const body = server.wire.at(-1)!.body as { model: string };
  assert.equal(body.model, 'gpt-4o');
});

test('the editor\'s tools reach the provider; a tool call comes back as a tool_call part', async () => {
  const parts: LmPart[] = [];
  const request = { ...ask('tool please'), tools: [{ name: 'hearth_read_note', description: 'Read', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }] };
  await respondForEditor(provider(endpointFor('cloud_a', server.url)), request, (part) => parts.push(part), new AbortController().signal);
  assert.deepEqual(parts, [{ kind: 'tool_call', callId: 'c1', name: 'hearth_read_note', input: { path: 'a.md' } }]);
  const body = server.wire.at(-1)!.body as { tools: { function: { name: string } }[] };
  assert.deepEqual(body.tools.map((t) => t.function.name), ['hearth_read_note']);
});

test('an unreachable provider fails with llm.unreachable, naming the provider, never the key', async () => {
  const redactor = new Redactor();
  redactor.add(KEY);
  const down = provider(`http://127.0.0.1:${await closedPort()}/v1`);
  await assert.rejects(respondForEditor(down, ask('hi'), () => assert.fail('no part'), new AbortController().signal, redactor), (error: unknown) => {
    assert.ok(isLlmError(error, 'llm.unreachable'), String(error));
    assert.match((error as Error).message, /^Hearth \(alpha\): /);
    assert.doesNotMatch((error as Error).message, new RegExp(KEY));
    return true;
  });
});

test('cancelled mid-stream: it ends quietly and reports nothing more', async () => {
  const controller = new AbortController();
  let text = '';
  await respondForEditor(provider(endpointFor('cloud_a', server.url)), ask('long'), (part) => {
    if (part.kind === 'text') text += part.value;
    controller.abort();
  }, controller.signal);
  assert.ok(text.length > 0 && text.length < 20, `stopped early: "${text}"`);
});
