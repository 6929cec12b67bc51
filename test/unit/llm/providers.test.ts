// The real SDKs (ollama, openai, @anthropic-ai/sdk) against aimock on loopback: the same behaviour
// is required of local_runner, cloud_a, custom and cloud_b.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/llm/createProvider';
import { isLlmError } from '../../../src/core/llm/errors';
import { llmRemedy } from '../../../src/core/agents/internal/llmRemedy';
import { editorRemedy } from '../../../src/core/chat/editorRemedies';
import type { ChatEvent, ChatMessage, LlmProvider, ToolDefinition } from '../../../src/core/llm/types';
import type { LlmProviderType } from '../../../src/core/config/providerTypes';
import { closedPort, endpointFor, GOOD_KEY, lastWire, settingsFor, startMockLlm, type MockLlm } from './mockLlm';

const TYPES: LlmProviderType[] = ['local_runner', 'cloud_a', 'custom', 'cloud_b'];
const weatherTool: ToolDefinition = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

async function collect(stream: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const text = (events: ChatEvent[]) => events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('');

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

let server: MockLlm;
let authServer: MockLlm;

before(async () => {
  server = await startMockLlm();
  const m = server.mock;
  m.on({ userMessage: 'hello' }, { content: 'Hi there, friend', usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 } } as never);
  // The tool-result fixture comes first: the follow-up request still holds the user's question.
  m.on({ toolResultContains: 'sunny-18C' } as never, { content: 'It is sunny in Paris.' });
  m.on({ userMessage: 'weather', toolName: 'get_weather' } as never, { toolCalls: [{ name: 'get_weather', arguments: '{"city":"Paris"}', id: 'call_w1' }] });
  // Answers after 3 s: far past the 150 ms timeout, so a loaded machine cannot blur the two.
  m.on({ userMessage: 'slow' }, { content: 'eventually' }, { latency: 3000 });
  m.on({ userMessage: 'nomodel', model: 'missing' }, { error: { message: 'model "missing" not found', type: 'not_found_error' }, status: 404 });
  m.on({ userMessage: 'busy' }, { error: { message: 'The server is overloaded', type: 'overloaded_error' }, status: 503 });
  authServer = await startMockLlm({ auth: true });
  authServer.mock.on({ userMessage: 'hello' }, { content: 'authorised' });
});

after(async () => {
  await server.stop();
  await authServer.stop();
});

function provider(type: LlmProviderType, overrides: Parameters<typeof settingsFor>[2] = {}, url = server.url): LlmProvider {
  return createProvider(settingsFor(type, endpointFor(type, url), { apiKeyRef: '{env:TEST_KEY}', apiKey: GOOD_KEY, ...overrides }), { maxRetries: 0 });
}

for (const type of TYPES) {
  describe(type, () => {
    test('streams text, then usage and a stop', async () => {
      const events = await collect(provider(type).chat([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello' }], []));
      assert.equal(text(events), 'Hi there, friend');
      const usage = events.find((e) => e.type === 'usage');
      assert.ok(usage, 'a usage event');
      // aimock reports Ollama counts as 0; the OpenAI and cloud_b wires carry the fixture's numbers.
      if (type !== 'local_runner') assert.ok((usage as { usage: { inputTokens: number } }).usage.inputTokens > 0);
      assert.deepEqual(events.at(-1), { type: 'stop', reason: 'stop', raw: type === 'cloud_b' ? 'end_turn' : 'stop' });
    });

    test('a tool call round trip: parsed arguments, an id, then the result answered', async () => {
      const p = provider(type);
      const history: ChatMessage[] = [{ role: 'user', content: 'weather in Paris?' }];
      const first = await collect(p.chat(history, [weatherTool]));
      const call = first.find((e) => e.type === 'tool_call');
      assert.ok(call && call.type === 'tool_call');
      assert.equal(call.call.name, 'get_weather');
      assert.deepEqual(call.call.arguments, { city: 'Paris' });
      assert.ok(call.call.id.length > 0);
      assert.equal(first.at(-1)?.type === 'stop' && first.at(-1), first.at(-1));
      assert.deepEqual((first.at(-1) as { reason: string }).reason, 'tool_calls');

      history.push({ role: 'assistant', content: '', toolCalls: [call.call] }, { role: 'tool', toolCallId: call.call.id, name: 'get_weather', content: '{"forecast":"sunny-18C"}' });
      const second = await collect(p.chat(history, [weatherTool]));
      assert.equal(text(second), 'It is sunny in Paris.');
      // The result went out in the backend's own wire format, tied to the call.
      if (type === 'cloud_b') {
        const sent = lastWire(server, '/v1/messages').messages as { role: string; content: { type: string; tool_use_id?: string; content?: string }[] }[];
        const block = sent.at(-1)?.content.find((b) => b.type === 'tool_result');
        assert.equal(block?.tool_use_id, call.call.id);
        assert.equal(block?.content, '{"forecast":"sunny-18C"}');
      } else if (type === 'local_runner') {
        const sent = lastWire(server, '/api/chat').messages as { role: string; content: string; tool_name?: string }[];
        assert.deepEqual(sent.at(-1), { role: 'tool', content: '{"forecast":"sunny-18C"}', tool_name: 'get_weather' });
      } else {
        const sent = lastWire(server, '/chat/completions').messages as { role: string; content: string; tool_call_id?: string }[];
        assert.deepEqual(sent.at(-1), { role: 'tool', tool_call_id: call.call.id, content: '{"forecast":"sunny-18C"}' });
      }
    });

    test('timeout_secs aborts a request that does not answer, and says so', async () => {
      const started = Date.now();
      const error = await rejection(collect(provider(type, { timeoutMs: 150 }).chat([{ role: 'user', content: 'slow' }], [])));
      assert.ok(isLlmError(error, 'llm.timeout'), String(error));
      assert.match((error as Error).message, /timeout_secs/);
      const took = Date.now() - started;
      assert.ok(took < 2000, `aborted before the server answered (${took} ms)`);
    });

    test('an invalid key is a 401 naming the variable that should hold it', async () => {
      const p = createProvider(settingsFor(type, endpointFor(type, authServer.url), { apiKeyRef: '{env:MY_LLM_KEY}', apiKey: 'sk-wrong-key' }), { maxRetries: 0 });
      const error = await rejection(collect(p.chat([{ role: 'user', content: 'hello' }], [])));
      assert.ok(isLlmError(error, 'llm.unauthorized'), String(error));
      assert.match((error as Error).message, /MY_LLM_KEY/);
      assert.doesNotMatch((error as Error).message, /sk-wrong-key/);
      // and the right key works
      const ok = createProvider(settingsFor(type, endpointFor(type, authServer.url), { apiKeyRef: '{env:MY_LLM_KEY}', apiKey: GOOD_KEY }), { maxRetries: 0 });
      assert.equal(text(await collect(ok.chat([{ role: 'user', content: 'hello' }], []))), 'authorised');
    });

    test('connection refused is a typed error with the remedy', async () => {
      const port = await closedPort();
      const p = provider(type, {}, `http://127.0.0.1:${port}`);
      const error = await rejection(collect(p.chat([{ role: 'user', content: 'hello' }], [])));
      assert.ok(isLlmError(error, 'llm.unreachable'), String(error));
      assert.match((error as Error).message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      if (type === 'local_runner') assert.match((error as Error).message, /ollama serve/);
      const listError = await rejection(p.listModels());
      assert.ok(isLlmError(listError, 'llm.unreachable'));
    });

    test('an unknown model is model-not-found with the remedy', async () => {
      const error = await rejection(collect(provider(type, { model: 'missing' }).chat([{ role: 'user', content: 'nomodel' }], [])));
      assert.ok(isLlmError(error, 'llm.model_not_found'), String(error));
      assert.match((error as Error).message, type === 'local_runner' ? /ollama pull missing/ : /hearth models/);
    });

    test('(#29) HTTP 503 "overloaded" is llm.overloaded, with a remedy that says to retry later or use another model', async () => {
      const error = await rejection(collect(provider(type).chat([{ role: 'user', content: 'busy' }], [])));
      assert.ok(isLlmError(error, 'llm.overloaded'), String(error));
      assert.match((error as Error).message, /overloaded/);
      assert.match(llmRemedy('llm.overloaded')!, /Try again in a minute, or use another model/);
      assert.match(editorRemedy('llm.overloaded')!, /Retry in a minute, or pick another model/);
    });

    test('lists the models the endpoint serves', async () => {
      const models = await provider(type).listModels();
      if (type === 'local_runner') {
        assert.deepEqual(models.map((m) => m.id), ['llama3.2:latest', 'qwen2.5:0.5b']);
        assert.equal(models[0].parameterBillions, 3.2);
        assert.ok(Math.abs(models[1].parameterBillions! - 0.494) < 0.001);
      } else {
        // aimock lists the models its fixtures name.
        assert.ok(models.some((m) => m.id === 'missing'), JSON.stringify(models));
      }
    });
  });
}

describe('local_runner specifics', () => {
  test('num_ctx comes from /api/show (capped) and the metadata is fetched once', async () => {
    const p = provider('local_runner', { model: 'qwen2.5:0.5b' });
    await collect(p.chat([{ role: 'user', content: 'hello' }], []));
    await collect(p.chat([{ role: 'user', content: 'hello' }], []));
    const body = lastWire(server, '/api/chat') as { options?: { num_ctx?: number; temperature?: number; num_predict?: number } };
    assert.equal(body.options?.num_ctx, 8192);
    assert.equal(body.options?.num_predict, 256);
    assert.equal(body.options?.temperature, 0.7);
    assert.equal(server.showCalls.filter((m) => m === 'qwen2.5:0.5b').length, 1);
    const big = provider('local_runner', { model: 'llama3.2' });
    await collect(big.chat([{ role: 'user', content: 'hello' }], []));
    assert.equal((lastWire(server, '/api/chat') as { options: { num_ctx: number } }).options.num_ctx, 32768);
  });

  test('parameter count comes from the runner metadata', async () => {
    assert.equal(await provider('local_runner').parameterBillions!('llama3.2'), 3.2);
  });
});

describe('settings reach the wire', () => {
  test('temperature and max_tokens for cloud_a and cloud_b', async () => {
    await collect(provider('cloud_a', { temperature: 0.2, maxTokens: 77 }).chat([{ role: 'user', content: 'hello' }], []));
    const a = lastWire(server, '/chat/completions');
    assert.equal(a.temperature, 0.2);
    assert.equal(a.max_completion_tokens, 77);
    await collect(provider('custom', { maxTokens: 66 }).chat([{ role: 'user', content: 'hello' }], []));
    assert.equal(lastWire(server, '/chat/completions').max_tokens, 66);
    await collect(provider('cloud_b', { temperature: 1.5, maxTokens: 55 }).chat([{ role: 'system', content: 'sys' }, { role: 'user', content: 'hello' }], []));
    const b = lastWire(server, '/v1/messages');
    assert.equal(b.temperature, 1);
    assert.equal(b.max_tokens, 55);
    assert.equal(b.system, 'sys');
  });

  test('a hosted provider without a key fails before any request, naming the variable', async () => {
    const p = createProvider(settingsFor('cloud_a', endpointFor('cloud_a', server.url), { name: 'work', apiKeyEnv: ['CLOUD_A_API_KEY', 'OPENAI_API_KEY'] }), { maxRetries: 0 });
    const error = await rejection(collect(p.chat([{ role: 'user', content: 'hello' }], [])));
    assert.equal((error as { code: string }).code, 'config.missing_secret');
    assert.match((error as Error).message, /CLOUD_A_API_KEY/);
    assert.match((error as Error).message, /work/);
  });

  test('githubcopilot outside the editor says it only works there', async () => {
    const p = createProvider(settingsFor('githubcopilot', undefined), {});
    const error = await rejection(collect(p.chat([{ role: 'user', content: 'hello' }], [])));
    assert.ok(isLlmError(error, 'llm.editor_only'));
    assert.match((error as Error).message, /only available inside the editor/);
  });

  test('a host factory supplies a provider for githubcopilot', async () => {
    const fake: LlmProvider = { settings: settingsFor('githubcopilot', undefined), listModels: async () => [{ id: 'gpt-4.1' }], async *chat() { yield { type: 'text', text: 'from the editor' } as ChatEvent; } };
    const p = createProvider(settingsFor('githubcopilot', undefined), {}, { githubcopilot: () => fake });
    assert.deepEqual(await p.listModels(), [{ id: 'gpt-4.1' }]);
  });

  test('custom without an endpoint fails on use with a typed error', async () => {
    const p = createProvider(settingsFor('custom', undefined), {});
    assert.ok(isLlmError(await rejection(p.listModels()), 'llm.missing_endpoint'));
    assert.ok(isLlmError(await rejection(collect(p.chat([{ role: 'user', content: 'hello' }], []))), 'llm.missing_endpoint'));
  });
});
