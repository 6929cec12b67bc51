/**
 * Hostile MCP clients of the gateway. Over stdio (the real `hearth gateway` process): every bad line
 * gets a JSON-RPC error — -32700 not JSON, -32600 batches / no `jsonrpc` / over the gateway's own
 * limit (logged), -32602 bad params — and the gateway keeps serving. Over HTTP: 413 for a body over
 * the limit, idle sessions expire and their number is capped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Gateway } from '../../../src/core/gateway/gateway';
import { MAX_BODY_BYTES, serveGatewayHttp } from '../../../src/core/gateway/gatewayHttp';
import { GATEWAY_MAX_REQUEST_MB } from '../../../src/core/gateway/gatewayStdioTransport';
import { silentLogger } from '../../../src/core/host';
import { FILESYSTEM, tempDir, testGatewayOptions, textOf, waitFor } from '../gateway/helpers';

interface Answer {
  id: string | number | null;
  result?: { content?: { text?: string }[]; serverInfo?: unknown };
  error?: { code: number; message: string };
}

test('the stdio gateway answers every bad line with a JSON-RPC error and keeps serving', { timeout: 120_000 }, async () => {
  const root = await tempDir('stdio-gw');
  await mkdir(join(root, '.hearth'));
  await writeFile(join(root, '.hearth', 'config.toml'), '');
  await writeFile(join(root, 'note.md'), '# Note\nhello from the kiln\n');
  const child = spawn(process.execPath, ['--import', resolve('node_modules/tsx/dist/loader.mjs'), resolve('src/cli/main.ts'), 'gateway'], {
    cwd: root,
    env: { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const answers: Answer[] = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      answers.push(JSON.parse(pending.slice(0, nl)) as Answer);
      pending = pending.slice(nl + 1);
    }
  });
  const send = (line: string) => child.stdin!.write(line + '\n');
  const nth = (n: number) => waitFor(() => answers.length >= n && answers[n - 1], 60_000, `answer ${n}`);
  try {
    send(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    assert.ok((await nth(1)).result?.serverInfo);
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const cases: [string, Answer['id'], number][] = [
      ['this is not json', null, -32700],
      [JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), null, -32600],
      [JSON.stringify({ id: 2, method: 'ping' }), 2, -32600],
      [JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: 'read_note' }), 3, -32602],
      [JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } }), 4, -32602],
      [JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'read_note', arguments: { path: 'x'.repeat(GATEWAY_MAX_REQUEST_MB * 1024 * 1024 + 10) } } }), 5, -32600],
    ];
    for (const [index, [line, id, code]] of cases.entries()) {
      send(line);
      const answer = await nth(index + 2);
      assert.equal(answer.id, id, line.slice(0, 60));
      assert.equal(answer.error?.code, code, `${line.slice(0, 60)}: ${JSON.stringify(answer)}`);
    }
    assert.match(answers.at(-1)!.error!.message, new RegExp(`over the gateway's ${GATEWAY_MAX_REQUEST_MB} MB limit`));
    await waitFor(() => /refused a request of more than 16 MB \(id 5\)/.test(stderr), 10_000, 'the refusal logged');
    send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'read_note', arguments: { path: 'note.md' } } }));
    const read = await nth(cases.length + 2);
    assert.equal(read.id, 6);
    assert.match(read.result?.content?.[0]?.text ?? '', /hello from the kiln/);
    assert.equal(answers.length, cases.length + 2, 'one answer per request, nothing else');
    child.stdin!.end();
    assert.equal(await exited, 0);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
});

test('the HTTP gateway answers 413 to a body over the limit, expires idle sessions and caps their number', { timeout: 60_000 }, async () => {
  let clock = 1_000_000;
  const gateway = new Gateway(testGatewayOptions());
  const handle = await serveGatewayHttp({ gateway, kilnTools: [], log: silentLogger, port: 0, now: () => clock, maxSessions: 3, sessionIdleMs: 60_000 });
  const connect = async () => {
    const client = new Client({ name: 'hostile', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers: { Authorization: `Bearer ${handle.token}` } } }));
    return client;
  };
  const clients: Client[] = [];
  try {
    const big = await fetch(handle.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${handle.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MAX_BODY_BYTES) } }),
    });
    assert.equal(big.status, 413);
    assert.match(((await big.json()) as Answer).error!.message, /Payload too large/);

    for (let i = 0; i < 5; i++) {
      clients.push(await connect());
      clock += 1000;
    }
    assert.equal(handle.sessionCount, 3, 'capped: the least recently used sessions were closed');
    await assert.rejects(clients[0].listTools(), 'an evicted session is gone');
    assert.ok(Array.isArray((await clients[4].listTools()).tools));
    clock += 30_000;
    await clients[3].listTools();
    clock += 40_000;
    assert.equal(await handle.expireIdle(), 2, 'the two sessions idle past 60 s');
    assert.equal(handle.sessionCount, 1);
    assert.ok(Array.isArray((await clients[3].listTools()).tools), 'the one in use lives on');
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await handle.dispose();
    await gateway.dispose();
  }
});

test('thousands of idle sessions do not pile up: opening them keeps the count at the cap', { timeout: 60_000 }, async () => {
  const gateway = new Gateway(testGatewayOptions());
  const handle = await serveGatewayHttp({ gateway, kilnTools: [], log: silentLogger, port: 0, maxSessions: 8 });
  try {
    for (let i = 0; i < 40; i++) {
      const response = await fetch(handle.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${handle.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `c${i}`, version: '1' } } }),
      });
      assert.equal(response.status, 200);
      await response.text();
      assert.ok(handle.sessionCount <= 8);
    }
    assert.equal(handle.sessionCount, 8);
  } finally {
    await handle.dispose();
    await gateway.dispose();
  }
});

test('hearth gateway lives through an upstream message over max_message_mb: that call fails, kiln tools keep working', { timeout: 180_000 }, async () => {
  const root = await tempDir('gw-big');
  await mkdir(join(root, '.hearth'));
  await writeFile(join(root, 'note.md'), '# Note\nstill served\n');
  await writeFile(join(root, 'big.log'), 'log line\n'.repeat(250_000));
  await writeFile(
    join(root, '.hearth', 'config.toml'),
    `[[mcp.servers]]\nname = "fs"\nprefix = "fs_"\nmax_message_mb = 1\nallowed_tools = ["read_text_file"]\n[mcp.servers.transport]\ntype = "stdio"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(root)}]\n`,
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', resolve('node_modules/tsx/dist/loader.mjs'), resolve('src/cli/main.ts'), 'gateway', '--trust'],
    cwd: root,
    env: { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg') } as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'big', version: '1' });
  await client.connect(transport);
  try {
    await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'fs_read_text_file'), 60_000, 'the fs upstream');
    const big = await client.callTool({ name: 'fs_read_text_file', arguments: { path: join(root, 'big.log') } });
    assert.equal(big.isError, true);
    assert.match(textOf(big), /more than 1 MB \(max_message_mb = 1\)/);
    assert.match(textOf(await client.callTool({ name: 'read_note', arguments: { path: 'note.md' } })), /still served/);
  } finally {
    await client.close();
  }
});
