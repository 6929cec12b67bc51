// `hearth acp` as a subprocess, driven by the ACP SDK's client side: what the model is OFFERED.
// The client's own MCP servers (session/new `mcpServers`: a real server-everything over stdio) are
// offered beside the kiln tools and a call to one runs on that server; in the read-only `ask` mode
// no writing tool is offered at all (before, they were offered and refused when called). A client
// that offers fs/* has notes read from its buffers and allowed writes applied by it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, realpath, symlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { GOOD_KEY, startMockLlm, type MockLlm } from '../llm/mockLlm';
import { KILN_NOTES, tempDir, writeFiles } from './helpers';
import { HEARTH_MAIN, TSX_LOADER } from '../cli/runHearth';

let server: MockLlm;
let root: string;
let cleanup: () => Promise<void>;
const EVERYTHING = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

type ChatBody = { messages: { role: string; content?: unknown }[]; tools?: { function: { name: string } }[] };
const lastUser = (r: ChatBody) => JSON.stringify([...r.messages].reverse().find((m) => m.role === 'user'));
const toolsThisTurn = (r: ChatBody) => r.messages.slice(r.messages.map((m) => m.role).lastIndexOf('user')).filter((m) => m.role === 'tool').length;
/** The tool names of the model requests whose last user message carries `key`. */
const offered = (key: string) => server.wire.filter((w) => lastUser(w.body as ChatBody).includes(key)).map((w) => ((w.body as ChatBody).tools ?? []).map((t) => t.function.name));

before(async () => {
  server = await startMockLlm();
  const asks = (key: string, tools: boolean) => ({ predicate: (r: ChatBody) => lastUser(r).includes(key) && (toolsThisTurn(r) > 0) === tools }) as never;
  server.mock.on({ predicate: (r: ChatBody) => lastUser(r).includes('KEY-echo') && JSON.stringify(r.messages).includes('Echo: plums are ripe') } as never, { content: 'The client server said: plums are ripe.' });
  server.mock.on(asks('KEY-echo', true), { content: 'The echo never came back.' });
  server.mock.on(asks('KEY-echo', false), { toolCalls: [{ id: 'e1', name: 'everything_echo', arguments: '{"message":"plums are ripe"}' }] });
  // fs/*: the model is answered from what read_note returned (the client's buffer, not the disk).
  server.mock.on({ predicate: (r: ChatBody) => lastUser(r).includes('KEY-fsread') && JSON.stringify(r.messages).includes('UNSAVED 260 C') } as never, { content: 'The buffer says 260 C.' });
  server.mock.on(asks('KEY-fsread', true), { content: 'I read the disk.' });
  server.mock.on(asks('KEY-fsread', false), { toolCalls: [{ id: 'f1', name: 'read_note', arguments: '{"path":"recipes/bread.md"}' }] });
  server.mock.on(asks('KEY-fswrite', true), { content: 'Written.' });
  server.mock.on(asks('KEY-fswrite', false), { toolCalls: [{ id: 'f2', name: 'create_note', arguments: '{"path":"plans/spring.md","content":"# Spring\\n"}' }] });
  server.mock.on(asks('KEY-fslink', true), { content: 'Tried the link.' });
  server.mock.on(asks('KEY-fslink', false), { toolCalls: [{ id: 'f3', name: 'create_note', arguments: '{"path":"outside/escape.md","content":"# Out\\n"}' }] });
  server.mock.on({}, { content: 'Fine.' });
  const made = await tempDir('hearth-acp-client-tools-');
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
size_aware_prompts = false

[acp]
enable_discovery = false
`,
  });
});
after(async () => {
  await server.stop();
  await cleanup();
});

interface ClientFs {
  reads: string[];
  writes: { path: string; content: string }[];
}

function startHearthAcp(fs?: ClientFs): { child: ChildProcess; conn: acp.ClientConnection; updates: acp.SessionNotification[] } {
  const env = { PATH: process.env.PATH ?? '', HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_CACHE_HOME: join(root, 'xdg-cache'), CLOUD_A_API_KEY: GOOD_KEY, HEARTH_TRUST: '1' };
  const child = spawn(process.execPath, ['--import', TSX_LOADER, HEARTH_MAIN, 'acp'], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr!.resume();
  const updates: acp.SessionNotification[] = [];
  const conn = acp
    .client({ name: 'test-client' })
    // As an editor's user clicking "Allow" would: the option of kind allow_once, whatever its id.
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => ({ outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_once')!.optionId } }))
    .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params))
    // The editor's side of fs/*: its buffer of bread.md has an edit not saved to disk.
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => (fs?.reads.push(params.path), { content: '# Bread\n\nBake at UNSAVED 260 C.\n' }))
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => (fs?.writes.push({ path: params.path, content: params.content }), {}))
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  return { child, conn, updates };
}

test('hearth acp offers the client\'s MCP servers\' tools (and runs them there), and no writing tool in the ask mode', { timeout: 120_000 }, async () => {
  const { child, conn, updates } = startHearthAcp();
  try {
    await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const mcpServers: acp.McpServer[] = [
      { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] },
      // Another Hearth's own gateway: not connected, `hearth acp` serves the kiln tools itself.
      { name: 'hearth', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] },
      // A server that cannot start is left out; the session still opens.
      { name: 'broken', command: join(root, 'no-such-server'), args: [], env: [] },
    ];
    const session = await conn.agent.request(acp.methods.agent.session.new, { cwd: root, mcpServers });
    const echo = await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'KEY-echo ask the client server' }] });
    assert.equal(echo.stopReason, 'end_turn');
    const first = offered('KEY-echo')[0]!;
    assert.ok(first.includes('everything_echo'), `the client's tools are offered: ${first.join(', ')}`);
    assert.ok(first.includes('read_note') && first.includes('create_note'), 'beside the kiln tools (edit mode: writing ones too)');
    assert.ok(!first.some((name) => name.startsWith('broken_') || name.startsWith('hearth_')));
    const said = updates.filter((u) => u.update.sessionUpdate === 'agent_message_chunk').map((u) => (u.update as { content: { text?: string } }).content.text ?? '').join('');
    assert.equal(said, 'The client server said: plums are ripe.', 'the call ran on the client\'s server and its result went back to the model');

    await conn.agent.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: 'ask' });
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'KEY-readonly what is there?' }] });
    const inAsk = offered('KEY-readonly')[0]!;
    assert.ok(inAsk.includes('read_note') && inAsk.includes('text_search'), `reading tools stay: ${inAsk.join(', ')}`);
    for (const writing of ['create_note', 'update_note', 'edit_note', 'move_note', 'delete_note']) assert.ok(!inAsk.includes(writing), `${writing} is not offered in the ask mode`);
  } finally {
    child.stdin!.end();
    await new Promise((done) => child.once('exit', done));
  }
});

test('hearth acp reads and writes notes through the client\'s fs/* when it offers them (confinement stays Hearth\'s)', { timeout: 120_000 }, async () => {
  const fs: ClientFs = { reads: [], writes: [] };
  await mkdir(join(root, '..', `${basename(root)}-outside`), { recursive: true });
  await symlink(join(root, '..', `${basename(root)}-outside`), join(root, 'outside'));
  const { child, conn, updates } = startHearthAcp(fs);
  const said = (from: number) => updates.slice(from).filter((u) => u.update.sessionUpdate === 'agent_message_chunk').map((u) => (u.update as { content: { text?: string } }).content.text ?? '').join('');
  try {
    await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
    const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: root, mcpServers: [] });
    let from = updates.length;
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'KEY-fsread how hot?' }] });
    assert.equal(said(from), 'The buffer says 260 C.', 'read_note returned the client\'s buffer');
    assert.deepEqual(fs.reads, [join(await realpath(root), 'recipes', 'bread.md')], 'asked for the absolute path');

    from = updates.length;
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'KEY-fswrite a spring plan' }] });
    assert.deepEqual(fs.writes, [{ path: join(await realpath(root), 'plans', 'spring.md'), content: '# Spring\n' }], 'the allowed write went to the client');
    assert.equal(existsSync(join(root, 'plans', 'spring.md')), false, 'Hearth did not write the disk itself');

    // A folder link leading out of the kiln: refused before the client is asked.
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'KEY-fslink write through the link' }] });
    assert.equal(fs.writes.length, 1, JSON.stringify(fs.writes));
    assert.equal(existsSync(join(root, '..', `${basename(root)}-outside`, 'escape.md')), false);
    const failed = updates.find((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.toolCallId.includes('f3') && u.update.status === 'failed');
    assert.ok(failed || updates.some((u) => JSON.stringify(u.update).includes('not allowed')), 'the escape is reported as a failed tool call');
  } finally {
    child.stdin!.end();
    await new Promise((done) => child.once('exit', done));
  }
});
