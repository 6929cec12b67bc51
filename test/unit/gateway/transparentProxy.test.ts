// The gateway as a transparent proxy: progress, log messages and their level, cancellation both
// ways, elicitation and sampling pass between a real SDK client and a real SDK upstream
// (fixtures/relayServerTools.mjs), both in process over InMemoryTransport.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { Gateway } from '../../../src/core/gateway/gateway';
import { createGatewayServer } from '../../../src/core/gateway/gatewayServer';
import { silentLogger } from '../../../src/core/host';
import { createRelayServer } from './fixtures/relayServerTools.mjs';
import { testGatewayOptions, textOf, waitFor } from './helpers';
import { inMemoryConfig, inMemoryUpstreams } from './inMemoryUpstream';

const seen = { levels: [] as string[], cancelled: [] as string[], progressTokens: [] as unknown[] };

async function connectClient(gateway: Gateway, capabilities: Record<string, unknown>): Promise<{ client: Client; close(): Promise<void> }> {
  const session = createGatewayServer({ gateway, kilnTools: [], log: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: 'proxy-test', version: '1' }, { capabilities });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      session.dispose();
    },
  };
}

describe('the gateway relays what passes between its client and an upstream', () => {
  let gateway: Gateway;
  before(async () => {
    gateway = new Gateway(testGatewayOptions({ transport: inMemoryUpstreams({ relay: () => ({ server: createRelayServer(seen) }) }) }));
    await gateway.applyConfig([inMemoryConfig('relay', 'r_', { timeout_secs: 30 })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
  });
  after(() => gateway.dispose());

  test('progress: the token goes upstream, the notifications come back under the client’s token', async () => {
    const { client, close } = await connectClient(gateway, {});
    try {
      const updates: Progress[] = [];
      const result = await client.callTool({ name: 'r_slow_steps', arguments: { steps: 3 } }, undefined, { onprogress: (progress) => updates.push(progress) });
      assert.equal(textOf(result), 'done 3');
      assert.notEqual(seen.progressTokens.at(-1), undefined, 'the upstream got a progress token');
      assert.deepEqual(updates.map((update) => update.progress), [1, 2, 3]);
      assert.equal(updates[2].message, 'step 3');
      // Without a token from the client, none goes upstream.
      await client.callTool({ name: 'r_slow_steps', arguments: { steps: 1 } });
      assert.equal(seen.progressTokens.at(-1), undefined);
    } finally {
      await close();
    }
  });

  test('an upstream flooding progress is throttled: the call answers, few notifications reach the client', async () => {
    const { client, close } = await connectClient(gateway, {});
    try {
      const updates: Progress[] = [];
      const result = await client.callTool({ name: 'r_flood', arguments: { count: 20_000 } }, undefined, { onprogress: (progress) => updates.push(progress) });
      assert.equal(textOf(result), 'flooded 20000');
      assert.ok(updates.length < 100, `${updates.length} of 20000 progress notifications relayed`);
    } finally {
      await close();
    }
  });

  test('logging: messages relayed with the upstream’s name, logging/setLevel forwarded and applied', async () => {
    const { client, close } = await connectClient(gateway, {});
    try {
      const messages: LoggingMessageNotification['params'][] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void messages.push(notification.params));
      assert.ok(client.getServerCapabilities()?.logging, 'the gateway declares logging');
      await client.callTool({ name: 'r_log', arguments: { level: 'info', text: 'first' } });
      await waitFor(() => messages.length === 1, 5000, 'the log message');
      assert.deepEqual(messages[0], { level: 'info', logger: 'relay/fixture', data: 'first' });
      await client.setLoggingLevel('warning');
      assert.equal(seen.levels.at(-1), 'warning', 'setLevel reached the upstream');
      await client.callTool({ name: 'r_log', arguments: { level: 'info', text: 'filtered' } });
      await client.callTool({ name: 'r_log', arguments: { level: 'error', text: 'kept' } });
      await waitFor(() => messages.length === 2, 5000, 'the error message');
      assert.equal(messages[1].data, 'kept');
    } finally {
      await close();
    }
  });

  test('elicitation and sampling reach a client that supports them; −32601 reaches the upstream otherwise', async () => {
    const able = await connectClient(gateway, { elicitation: { form: {} }, sampling: {} });
    try {
      const asked: string[] = [];
      able.client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { name: 'Ada' } };
      });
      able.client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
        role: 'assistant',
        model: 'test-model',
        content: { type: 'text', text: `hi (${request.params.messages.length} message)` },
      }));
      assert.equal(textOf(await able.client.callTool({ name: 'r_ask_name', arguments: {} })), 'hello Ada');
      assert.deepEqual(asked, ['What is your name?']);
      assert.equal(textOf(await able.client.callTool({ name: 'r_ask_model', arguments: {} })), 'model said: hi (1 message)');
    } finally {
      await able.close();
    }
    const unable = await connectClient(gateway, {});
    try {
      const result = await unable.client.callTool({ name: 'r_ask_name', arguments: {} });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /no client connected to the Hearth gateway supports it/);
    } finally {
      await unable.close();
    }
  });

  test('cancellation both ways: the client’s reaches the upstream tool; the upstream’s withdraws its question', async () => {
    const { client, close } = await connectClient(gateway, { elicitation: { form: {} } });
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'r_wait_cancel', arguments: {} }, undefined, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort('user stopped it');
      await assert.rejects(call);
      await waitFor(() => seen.cancelled.includes('wait_cancel'), 5000, 'the upstream tool to see the cancellation');

      let questionSignal: AbortSignal | undefined;
      // SDK 1.32 ignores a cancellation of request id 0 (`if (!requestId) return`): the session's
      // first question is answered, so the withdrawn one has a later id.
      let first = true;
      client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
        if (first) {
          first = false;
          return { action: 'accept', content: { name: 'first' } };
        }
        questionSignal = extra.signal;
        return new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve({ action: 'cancel' })));
      });
      assert.equal(textOf(await client.callTool({ name: 'r_ask_name', arguments: {} })), 'hello first');
      const pending = client.callTool({ name: 'r_ask_then_withdraw', arguments: {} });
      await waitFor(() => questionSignal, 5000, 'the question to reach the client');
      await client.callTool({ name: 'r_withdraw', arguments: {} });
      assert.equal(textOf(await pending), 'withdrawn');
      await waitFor(() => questionSignal?.aborted, 5000, 'the client’s question to be cancelled');
    } finally {
      await close();
    }
  });

  test('an unknown tool is JSON-RPC −32602', async () => {
    const { client, close } = await connectClient(gateway, {});
    try {
      await assert.rejects(client.callTool({ name: 'r_nope', arguments: {} }), (error: McpError) => error.code === ErrorCode.InvalidParams);
    } finally {
      await close();
    }
  });
});
