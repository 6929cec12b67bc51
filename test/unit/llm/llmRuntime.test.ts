// The runtime a host builds: selection, providers and size-aware model checks, end to end.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HearthConfigSchema } from '../../../src/core/config/schema';
import { LlmRuntime } from '../../../src/core/llm/llmRuntime';
import { closedPort, startMockLlm, type MockLlm } from './mockLlm';

let server: MockLlm;
before(async () => {
  server = await startMockLlm();
  server.mock.on({ userMessage: 'hi' }, { content: 'hello from the runner' });
});
after(() => server.stop());

test('size comes from the runner metadata, else the name; hosted models count as large', async () => {
  const dead = await closedPort();
  const config = HearthConfigSchema.parse({
    llm: {
      default: 'local',
      providers: {
        local: { type: 'ollama', endpoint: server.url, default_model: 'llama3.2' },
        away: { type: 'ollama', endpoint: `http://127.0.0.1:${dead}`, default_model: 'qwen2.5:0.5b' },
        work: { type: 'openai', endpoint: `${server.url}/v1`, default_model: 'gpt-4o', api_key: '{env:K}' },
      },
    },
  });
  const runtime = new LlmRuntime(() => ({ config, sources: {}, keys: { llm: { work: 'k' }, embedding: undefined } }), { maxRetries: 0 });
  // /api/show says 3.2B although the name has no size.
  assert.equal(await runtime.parameterBillions(), 3.2);
  assert.equal(await runtime.isSmallModel(), true);
  runtime.selection.switchTo('away/');
  assert.equal(await runtime.parameterBillions(), 0.5);
  runtime.selection.switchTo('work/gpt-4o');
  assert.equal(await runtime.isSmallModel(), false);

  // The same provider object is reused while its settings hold (its metadata cache survives).
  runtime.selection.switchTo('local/llama3.2');
  assert.equal(runtime.provider(), runtime.provider());
  let text = '';
  for await (const event of runtime.provider().chat([{ role: 'user', content: 'hi' }], [])) if (event.type === 'text') text += event.text;
  assert.equal(text, 'hello from the runner');
  assert.equal(server.showCalls.filter((m) => m === 'llama3.2').length, 1);
});
