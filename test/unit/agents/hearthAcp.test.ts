// `hearth acp` as a subprocess, driven by the ACP SDK's client side (the way Zed or JetBrains start
// it), against an aimock OpenAI endpoint: a session with modes and options, a streamed answer with a
// kiln tool call, a write asked of the client (rejected, then allowed), `ask` mode refusing writes,
// session/list and a resumed session that remembers; then Hearth's own ACP client talking to it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { GOOD_KEY, startMockLlm, type MockLlm } from '../llm/mockLlm';
import { KILN_NOTES, tempDir, writeFiles } from './helpers';
import { HEARTH_MAIN, TSX_LOADER } from '../cli/runHearth';
import { collect, createAgents, ScriptedHost, textOf } from './acp/helpers';

let server: MockLlm;
let root: string;
let cleanup: () => Promise<void>;
const env = () => ({ PATH: process.env.PATH ?? '', HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_CACHE_HOME: join(root, 'xdg-cache'), CLOUD_A_API_KEY: GOOD_KEY, HEARTH_TRUST: '1' });

before(async () => {
  server = await startMockLlm();
  const lastUser = (r: { messages: { role: string; content?: unknown }[] }) => JSON.stringify([...r.messages].reverse().find((m) => m.role === 'user'));
  const toolsThisTurn = (r: { messages: { role: string }[] }) => r.messages.slice(r.messages.map((m) => m.role).lastIndexOf('user')).filter((m) => m.role === 'tool').length;
  const asks = (key: string, tools: boolean) => ({ predicate: (r: never) => lastUser(r).includes(key) && (toolsThisTurn(r) > 0) === tools }) as never;
  server.mock.on(asks('KEY-bread', true), { content: 'Bake at 230 C, see recipes/bread.md.' });
  server.mock.on(asks('KEY-bread', false), { toolCalls: [{ id: 'r1', name: 'read_note', arguments: '{"path":"recipes/bread.md"}' }] });
  server.mock.on(asks('KEY-write', true), { content: 'Tried to write it.' });
  server.mock.on(asks('KEY-write', false), { toolCalls: [{ id: 'w1', name: 'create_note', arguments: '{"path":"ideas.md","content":"# Ideas\\n"}' }] });
  // The resumed session is answered from what the model is sent: the earlier turn must be in it.
  server.mock.on({ predicate: (r: never) => lastUser(r).includes('KEY-recall') && JSON.stringify((r as { messages: unknown[] }).messages).includes('KEY-bread') } as never, { content: 'You asked about bread.' });
  server.mock.on(asks('KEY-recall', false), { content: 'I do not know.' });
  const made = await tempDir('hearth-acp-server-');
  root = made.dir;
  cleanup = made.cleanup;
  await writeFiles(root, {
    ...KILN_NOTES,
    '.hearth/config.toml': `[llm]
default = "mock"

[llm.providers.mock]
type = "openai"
endpoint = "${server.url}/v1"
default_model = "big-model"

[chat]
auto_context = false

[acp]
enable_discovery = false
`,
  });
});
after(async () => {
  await server.stop();
  await cleanup();
});

function startHearthAcp(): { child: ChildProcess; conn: acp.ClientConnection; updates: acp.SessionNotification[]; asked: acp.RequestPermissionRequest[]; answer: { value: string } } {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, HEARTH_MAIN, 'acp'], { cwd: root, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr!.resume();
  const updates: acp.SessionNotification[] = [];
  const asked: acp.RequestPermissionRequest[] = [];
  const answer = { value: 'reject' };
  const conn = acp
    .client({ name: 'test-client' })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => (asked.push(params), { outcome: { outcome: 'selected', optionId: answer.value } }))
    .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params))
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  return { child, conn, updates, asked, answer };
}

const text = (updates: acp.SessionNotification[], sessionId: string) =>
  updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk').map((u) => (u.update as { content: { text?: string } }).content.text ?? '').join('');

test('hearth acp: initialize, a session with modes and options, a kiln tool call streamed, writes asked (and refused in ask mode), list and resume', { timeout: 120_000 }, async () => {
  const { child, conn, updates, asked, answer } = startHearthAcp();
  try {
    const init = await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } } });
    assert.equal(init.agentInfo?.name, 'hearth');
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.ok(init.agentCapabilities?.sessionCapabilities?.resume && init.agentCapabilities.sessionCapabilities.list);
    const session = await conn.agent.request(acp.methods.agent.session.new, { cwd: root, mcpServers: [] });
    assert.deepEqual(session.modes?.availableModes.map((m) => m.id), ['ask', 'edit']);
    assert.deepEqual(session.configOptions?.map((o) => o.id), ['mode', 'model', 'agent']);
    assert.equal(session.configOptions?.find((o) => o.id === 'model')?.currentValue, 'mock/big-model');

    const bread = await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'KEY-bread how hot?' }] });
    assert.equal(bread.stopReason, 'end_turn');
    const call = updates.find((u) => u.update.sessionUpdate === 'tool_call');
    assert.ok(call && call.update.sessionUpdate === 'tool_call' && call.update.kind === 'read' && JSON.stringify(call.update.rawInput).includes('recipes/bread.md'));
    assert.ok(updates.some((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed'));
    assert.equal(text(updates, session.sessionId), 'Bake at 230 C, see recipes/bread.md.');

    // A write asks the client, naming the path: rejected, nothing is written.
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'KEY-write an ideas note' }] });
    assert.ok(asked.some((a) => a.toolCall.title?.includes('ideas.md')), JSON.stringify(asked));
    assert.equal(existsSync(join(root, 'ideas.md')), false);
    // Allowed, it is written.
    answer.value = 'allow';
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'KEY-write an ideas note again' }] });
    assert.equal(readFileSync(join(root, 'ideas.md'), 'utf8'), '# Ideas\n');
    // In the ask mode writes are refused without asking.
    const askedBefore = asked.length;
    await conn.agent.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: 'ask' });
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'KEY-write once more' }] });
    assert.equal(asked.length, askedBefore);

    const listed = await conn.agent.request(acp.methods.agent.session.list, { cwd: root });
    assert.ok(listed.sessions.some((s) => s.sessionId === session.sessionId && s.title?.includes('KEY-bread')));
  } finally {
    child.stdin!.end();
    await new Promise((done) => child.once('exit', done));
  }

  // A new process resumes the recorded session: the model is sent the earlier turns.
  const second = startHearthAcp();
  try {
    await second.conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const sessionId = (await second.conn.agent.request(acp.methods.agent.session.list, { cwd: root })).sessions.find((s) => s.title?.includes('KEY-bread'))!.sessionId;
    await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: root, mcpServers: [] });
    assert.ok(second.updates.some((u) => u.update.sessionUpdate === 'user_message_chunk' && JSON.stringify(u.update).includes('KEY-bread')), 'load replays the history');
    const before = second.updates.length;
    await second.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'KEY-recall what did I ask?' }] });
    assert.equal(text(second.updates.slice(before), sessionId), 'You asked about bread.');
  } finally {
    second.child.stdin!.end();
    await new Promise((done) => second.child.once('exit', done));
  }
});

test('Hearth\'s own ACP client talks to hearth acp (a profile that runs it)', { timeout: 120_000 }, async () => {
  const { agents } = createAgents({
    profiles: { hearth: { command: process.execPath, args: ['--import', TSX_LOADER, HEARTH_MAIN, 'acp'] } },
    env: { ...process.env, ...env() },
    spawn: true,
    limits: { startTimeoutMs: 60_000 },
  });
  const session = await agents.start('hearth', { host: new ScriptedHost(), cwd: root });
  try {
    assert.deepEqual(session.controls!.current().options.map((o) => o.id), ['mode', 'model', 'agent']);
    // read_note went through Hearth's own client's fs/read_text_file (it offers fs/*), confined to the workspace.
    assert.equal(textOf(await collect(session.prompt('KEY-bread how hot?'))), 'Bake at 230 C, see recipes/bread.md.');
    // The mode picker of Hearth's client reaches hearth acp: in `ask` the model is offered no writing tool.
    await session.controls!.setOption('mode', 'ask');
    const from = server.wire.length;
    await collect(session.prompt('KEY-recall anything?'));
    const tools = server.wire.slice(from).flatMap((w) => ((w.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name));
    assert.ok(tools.includes('read_note') && !tools.includes('create_note'), tools.join(', '));
  } finally {
    await session.dispose();
    await agents.dispose();
  }
});
