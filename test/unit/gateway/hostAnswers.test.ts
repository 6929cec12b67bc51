// The editor answers an upstream's elicitation and sampling itself when Hearth is the caller (the
// in-process Gateway, as chat and agents use it): a real MCP SDK upstream asks, the host functions
// (the only fakes: they stand for the input boxes and the approval dialog) record what they were
// asked, and sampling runs through a real openai-compatible provider on aimock.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Gateway } from '../../../src/core/gateway/gateway';
import { createGatewayServer } from '../../../src/core/gateway/gatewayServer';
import { silentLogger } from '../../../src/core/host';
import { hostPeer, type FormAnswer, type HostAnswers } from '../../../src/core/gateway/hostAnswers/hostPeer';
import { fieldTextProblem, fieldValueFromText, MAX_FORM_FIELDS, type ElicitForm } from '../../../src/core/gateway/hostAnswers/elicitForm';
import { runSampling, type SampleRequest } from '../../../src/core/gateway/hostAnswers/samplingRequest';
import { LlmRuntime } from '../../../src/core/llm/llmRuntime';
import { testGatewayOptions, textOf } from './helpers';
import { inMemoryConfig, inMemoryUpstreams } from './inMemoryUpstream';
import { GOOD_KEY, startMockLlm, type MockLlm } from '../llm/mockLlm';
import { mockConfig } from '../agents/helpers';

const FORM = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, title: 'Your name', minLength: 2 },
    age: { type: 'integer' as const, minimum: 0, maximum: 150 },
    subscribe: { type: 'boolean' as const, default: true },
    colour: { type: 'string' as const, enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
  },
  required: ['name', 'age'],
};

/** Answers (or errors) as the upstream saw them, as the tool's text. */
function askingServer(schema: () => Record<string, unknown>, message: () => string): McpServer {
  const server = new McpServer({ name: 'asking-fixture', version: '1' });
  server.registerTool('ask', {}, async () => {
    try {
      const answer = await server.server.elicitInput({ message: message(), requestedSchema: schema() as never });
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `error ${(error as { code?: number }).code}: ${(error as Error).message}` }] };
    }
  });
  server.registerTool('sample', { inputSchema: { maxTokens: z.number() } }, async ({ maxTokens }) => {
    try {
      const reply = await server.server.createMessage({ systemPrompt: 'You summarise.', messages: [{ role: 'user', content: { type: 'text', text: 'KEY-sample Summarise the bread note' } }], maxTokens });
      return { content: [{ type: 'text', text: JSON.stringify(reply) }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `error ${(error as { code?: number }).code}: ${(error as Error).message}` }] };
    }
  });
  return server;
}

describe('the editor answers upstream elicitation and sampling itself', () => {
  let schema: () => Record<string, unknown> = () => FORM;
  let message = 'Tell me about you';
  const gateway = new Gateway(testGatewayOptions({ transport: inMemoryUpstreams({ asker: () => ({ server: askingServer(() => schema(), () => message) }) }) }));
  const forms: ElicitForm[] = [];
  const samples: SampleRequest[] = [];
  let formAnswer: FormAnswer = { action: 'cancel' };
  let approve = true;
  let llm: MockLlm;
  let runtime: LlmRuntime;
  const answers: HostAnswers = {
    elicit: async (form) => (forms.push(form), formAnswer),
    sample: async (request, signal) => (samples.push(request), approve ? runSampling(runtime.provider(), request, signal) : undefined),
  };
  let attached: { dispose(): void } | undefined;

  before(async () => {
    llm = await startMockLlm();
    llm.mock.on({ userMessage: 'KEY-sample Summarise the bread note' }, { content: 'Bread: flour, water, salt, yeast.' });
    const config = mockConfig('cloud_a', llm.url, 'sampler-1');
    runtime = new LlmRuntime(() => ({ config, sources: {}, keys: { llm: { mock: GOOD_KEY }, embedding: undefined } }), { maxRetries: 0 });
    attached = gateway.clients.attach(hostPeer(answers));
    await gateway.applyConfig([inMemoryConfig('asker', 'ask_')]);
  });
  after(async () => {
    attached?.dispose();
    await gateway.dispose();
    await llm.stop();
  });

  test('the form names the server, carries the fields and their defaults; the answer reaches the upstream tool', async () => {
    formAnswer = { action: 'accept', content: { name: 'Ada', age: 36, colour: 'green' } };
    const result = JSON.parse(textOf(await gateway.callTool('ask_ask', {})));
    assert.deepEqual(result, { action: 'accept', content: { name: 'Ada', age: 36, subscribe: true, colour: 'green' } });
    const form = forms.at(-1)!;
    assert.equal(form.server, 'asker');
    assert.equal(form.message, 'Tell me about you');
    assert.deepEqual(form.fields.map((field) => [field.name, field.kind, field.title, field.required]), [
      ['name', 'string', 'Your name', true],
      ['age', 'number', 'age', true],
      ['subscribe', 'boolean', 'subscribe', false],
      ['colour', 'choice', 'colour', false],
    ]);
    assert.deepEqual(form.fields[3]!.kind === 'choice' && form.fields[3]!.options, [{ value: 'red', label: 'Red' }, { value: 'green', label: 'Green' }]);
    assert.equal(form.fields[2]!.kind === 'boolean' && form.fields[2]!.default, true);
  });

  test('decline and cancel pass through to the upstream', async () => {
    formAnswer = { action: 'decline' };
    assert.deepEqual(JSON.parse(textOf(await gateway.callTool('ask_ask', {}))), { action: 'decline' });
    formAnswer = { action: 'cancel' };
    assert.deepEqual(JSON.parse(textOf(await gateway.callTool('ask_ask', {}))), { action: 'cancel' });
  });

  test('an answer off the schema is not sent as accepted: the upstream gets an error', async () => {
    formAnswer = { action: 'accept', content: { name: 'Ada', age: 900 } };
    assert.match(textOf(await gateway.callTool('ask_ask', {})), /^error -32603: .*age must be at most 150/);
    formAnswer = { action: 'accept', content: { age: 3 } };
    assert.match(textOf(await gateway.callTool('ask_ask', {})), /^error -32603: .*Your name was not answered/);
  });

  test('hostile forms are refused with a clear reason before anything is shown', async () => {
    const shown = forms.length;
    schema = () => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, { type: 'string' }])) });
    assert.match(textOf(await gateway.callTool('ask_ask', {})), new RegExp(`^error -32602: .*upstream "asker" refused: the form has 300 fields \\(at most ${MAX_FORM_FIELDS}\\)`));
    schema = () => ({ type: 'object', properties: { x: { type: 'string', description: 'y'.repeat(1_000_000) } } });
    assert.match(textOf(await gateway.callTool('ask_ask', {})), /^error -32602: .*field "x": the description is 1000000 characters long/);
    schema = () => ({ type: 'object', properties: { x: { type: 'string', enum: Array.from({ length: 5000 }, (_, i) => `o${i}`) } } });
    assert.match(textOf(await gateway.callTool('ask_ask', {})), /^error -32602: .*5000 options/);
    // A type outside the spec's primitives is already refused by the SDK's own request parsing.
    schema = () => ({ type: 'object', properties: { x: { type: 'object', properties: {} } } });
    assert.match(textOf(await gateway.callTool('ask_ask', {})), /^error -326\d\d: /);
    schema = () => FORM;
    message = 'z'.repeat(500_000);
    assert.match(textOf(await gateway.callTool('ask_ask', {})), /^error -32602: .*the message is 500000 characters long/);
    message = 'Tell me about you';
    assert.equal(forms.length, shown, 'nothing hostile reached the user');
  });

  test('what is typed in an input box is checked against the field before the form is sent', () => {
    const form = forms[0]!;
    const [name, age] = form.fields;
    assert.equal(fieldTextProblem(name!, ''), 'Your name is required');
    assert.equal(fieldTextProblem(name!, 'A'), 'Your name needs at least 2 characters');
    assert.equal(fieldTextProblem(age!, '3.5'), 'age must be an integer');
    assert.equal(fieldTextProblem(age!, '151'), 'age must be at most 150');
    assert.equal(fieldValueFromText(age!, ' 42 '), 42);
    assert.equal(fieldTextProblem(age!, '42'), undefined);
  });

  test('sampling: the prompt is shown, the approved request runs through the active provider, maxTokens passed on', async () => {
    approve = true;
    const reply = JSON.parse(textOf(await gateway.callTool('ask_sample', { maxTokens: 77 })));
    assert.deepEqual(reply, { role: 'assistant', content: { type: 'text', text: 'Bread: flour, water, salt, yeast.' }, model: 'sampler-1', stopReason: 'endTurn' });
    const asked = samples.at(-1)!;
    assert.equal(asked.server, 'asker');
    assert.equal(asked.maxTokens, 77);
    assert.match(asked.shown, /^system: You summarise\.\n\nuser: KEY-sample Summarise the bread note$/);
    const sent = llm.wire.at(-1)!.body;
    assert.equal(sent.max_tokens ?? sent.max_completion_tokens, 77);
  });

  test('sampling refused by the user: the upstream gets the "user rejected" error, not a hang', async () => {
    approve = false;
    const calls = llm.wire.length;
    assert.match(textOf(await gateway.callTool('ask_sample', { maxTokens: 10 })), /^error -1: .*user rejected sampling request/);
    assert.equal(llm.wire.length, calls, 'no model was asked');
  });

  test('a gateway session calling the upstream with elicitation of its own is asked first, not the editor', async () => {
    const session = createGatewayServer({ gateway, kilnTools: [], log: silentLogger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const client = new Client({ name: 'vscode-mcp', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'From the client', age: 1 } }));
    await client.connect(clientSide);
    try {
      const shown = forms.length;
      const result = JSON.parse(textOf(await client.callTool({ name: 'ask_ask', arguments: {} })));
      assert.equal(result.content.name, 'From the client');
      assert.equal(forms.length, shown, 'the editor asked nobody');
    } finally {
      await client.close();
      session.dispose();
    }
  });

  test('without a host (the CLI with no client that can answer) the upstream still gets −32601', async () => {
    attached?.dispose();
    attached = undefined;
    assert.match(textOf(await gateway.callTool('ask_ask', {})), /^error -32601/);
    assert.match(textOf(await gateway.callTool('ask_sample', { maxTokens: 10 })), /^error -32601/);
  });
});
