// Upstream MCP tools through the real gateway (server-everything, in process) in the internal loop:
// a read-only tool runs at once, a tool not marked read-only asks first, a small model sees only
// the read-only ones.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Gateway } from '../../../src/core/gateway/gateway';
import { startInternalAgent } from '../../../src/core/agents/internal/internalAgents';
import { BUILTIN_KILN_CARD } from '../../../src/core/agents/agentCards';
import { testGatewayOptions } from '../gateway/helpers';
import { everything, inMemoryConfig, inMemoryUpstreams } from '../gateway/inMemoryUpstream';
import { startMockLlm, type MockLlm } from '../llm/mockLlm';
import { agentDeps, collect, KILN_NOTES, mockConfig, RecordingHost, tempDir, textOf, updates, writeFiles } from './helpers';

type Req = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };

let server: MockLlm;
let gateway: Gateway;
let kiln: string;
let cleanup: () => Promise<void>;

const has = (req: Req, key: string) => JSON.stringify(req.messages).includes(key);
// Tool results of the current turn only (after the last user message).
const tools = (req: Req) => req.messages.slice(req.messages.map((m) => m.role).lastIndexOf('user')).filter((m) => m.role === 'tool').length;

before(async () => {
  server = await startMockLlm();
  const on = (when: (req: Req) => boolean, response: Record<string, unknown>) => server.mock.on({ predicate: when } as never, response as never);
  on((r) => has(r, 'KEY-echo') && tools(r) === 1, { content: 'The server echoed.' });
  on((r) => has(r, 'KEY-echo'), { toolCalls: [{ id: 'u_echo', name: 'ev_echo', arguments: '{"message":"hello upstream"}' }] });
  on((r) => has(r, 'KEY-toggle') && tools(r) === 1, { content: 'Done toggling.' });
  on((r) => has(r, 'KEY-toggle'), { toolCalls: [{ id: 'u_toggle', name: 'ev_toggle-simulated-logging', arguments: '{}' }] });
  on((r) => has(r, 'KEY-list'), { content: 'Listed.' });
  gateway = new Gateway(testGatewayOptions({ transport: inMemoryUpstreams({ everything }) }));
  await gateway.applyConfig([inMemoryConfig('everything', 'ev_', { allowed_tools: ['echo', 'get-sum', 'toggle-simulated-logging'] })]);
  const made = await tempDir();
  kiln = made.dir;
  cleanup = made.cleanup;
  await writeFiles(kiln, KILN_NOTES);
});
after(async () => {
  await gateway.dispose();
  gateway.dispose();
  await server.stop();
  await cleanup();
});

test('a read-only upstream tool runs without asking and its result reaches the model', async () => {
  const host = new RecordingHost('reject_once');
  const session = await startInternalAgent(BUILTIN_KILN_CARD, { host, cwd: kiln }, agentDeps(mockConfig('cloud_a', server.url, 'big-model'), kiln, gateway));
  const events = await collect(session.prompt('KEY-echo please'));
  assert.equal(host.requests.length, 0);
  assert.equal(updates(events)[0].status, 'completed');
  assert.match(updates(events)[0].result ?? '', /hello upstream/);
  assert.equal(textOf(events), 'The server echoed.');
});

test('an upstream tool not marked read-only asks; a denial never reaches the server', async () => {
  const host = new RecordingHost('reject_once');
  const session = await startInternalAgent(BUILTIN_KILN_CARD, { host, cwd: kiln }, agentDeps(mockConfig('cloud_a', server.url, 'big-model'), kiln, gateway));
  const denied = await collect(session.prompt('KEY-toggle logging'));
  assert.equal(host.requests.length, 1);
  assert.equal(updates(denied)[0].status, 'denied');
  host.answer = 'allow_once';
  const allowed = await collect(session.prompt('KEY-toggle logging again'));
  assert.equal(updates(allowed)[0].status, 'completed');
  // "Started": the first call the server saw, so the denied one never ran.
  assert.match(updates(allowed)[0].result ?? '', /^Started simulated/);
  // Turn it back off so the server stops sending log messages.
  await gateway.callTool('ev_toggle-simulated-logging', {});
});

test('a small model is offered only the read-only upstream tools', async () => {
  const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig('cloud_a', server.url, 'llama3.2:1b'), kiln, gateway));
  await collect(session.prompt('KEY-list tools'));
  const offered = ((server.mock.getRequests().at(-1)!.body as unknown as Req).tools ?? []).map((t) => t.function.name);
  assert.ok(offered.includes('ev_echo') && offered.includes('ev_get-sum'));
  assert.ok(!offered.includes('ev_toggle-simulated-logging'));
  assert.ok(!offered.includes('create_note'));
});
