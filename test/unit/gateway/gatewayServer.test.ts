import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { existsSync } from 'node:fs';
import { Gateway } from '../../../src/core/gateway/gateway';
import { serveGatewayHttp, type GatewayHttpHandle } from '../../../src/core/gateway/gatewayHttp';
import { createGatewayServer } from '../../../src/core/gateway/gatewayServer';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { silentLogger } from '../../../src/core/host';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { EVERYTHING, isAlive, testGatewayOptions, textOf, waitFor, tempDir } from './helpers';
import { everything, inMemoryConfig, inMemoryUpstreams } from './inMemoryUpstream';

async function makeWorkspace(): Promise<string> {
  const root = await tempDir('ws');
  await mkdir(join(root, '.hearth'));
  await writeFile(join(root, 'hello.md'), '# Hello\nfrom the kiln\n');
  await writeFile(
    join(root, '.hearth', 'config.toml'),
    [
      '[[mcp.servers]]',
      'name = "every"',
      'prefix = "ev_"',
      'allowed_tools = ["echo", "get-sum"]',
      '[mcp.servers.transport]',
      'type = "stdio"',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(EVERYTHING)}, "stdio"]`,
      '',
    ].join('\n'),
  );
  return root;
}

/** Raw HTTP POST, to check what the SDK client would never send (bad token, foreign Host/Origin). */
function rawPost(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
  });
}

describe('the gateway as an MCP server', () => {
  test('an MCP client talks to `hearth gateway` over stdio: kiln + upstream tools, errors as isError, an unknown tool as −32602', async () => {
    const root = await makeWorkspace();
    const transport = new StdioClientTransport({
      command: process.execPath,
      // tsx by path: it must resolve from the repository although cwd is the workspace.
      args: ['--import', resolve('node_modules/tsx/dist/loader.mjs'), resolve('src/cli/main.ts'), 'gateway'],
      cwd: root,
      env: { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg'), HEARTH_TRUST: '1' } as Record<string, string>,
      stderr: 'pipe',
    });
    // The client supports elicitation: destructive kiln tools ask its user (answers scripted here).
    const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    const answers: boolean[] = [false, true];
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answers.shift() ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes('read_note') && names.includes('delete_note'), names.join());
      assert.ok(names.includes('ev_echo') && names.includes('ev_get-sum'), names.join());
      assert.ok(!names.includes('ev_get-env'));
      assert.match(textOf(await client.callTool({ name: 'ev_echo', arguments: { message: 'via gateway' } })), /via gateway/);
      assert.match(textOf(await client.callTool({ name: 'read_note', arguments: { path: 'hello.md' } })), /from the kiln/);
      const outside = await client.callTool({ name: 'read_note', arguments: { path: '../x.md' } });
      assert.equal(outside.isError, true);
      // A name nobody serves is a protocol error (−32602), not a tool result.
      await assert.rejects(client.callTool({ name: 'ev_nope', arguments: {} }), (error: McpError) => error.code === ErrorCode.InvalidParams && /no tool named "ev_nope"/.test(error.message));
      const declined = await client.callTool({ name: 'delete_note', arguments: { path: 'hello.md' } });
      assert.equal(declined.isError, true);
      assert.match(textOf(declined), /declined/);
      assert.ok(existsSync(join(root, 'hello.md')));
      const accepted = await client.callTool({ name: 'delete_note', arguments: { path: 'hello.md' } });
      assert.equal(textOf(accepted), 'Deleted hello.md');
      assert.ok(!existsSync(join(root, 'hello.md')));
      assert.equal(asked.length, 2);
      assert.match(asked[0], /Delete the note "hello.md"/);
    } finally {
      const pid = transport.pid!;
      await client.close();
      await waitFor(() => !isAlive(pid), 5000, 'gateway process exit');
    }
  });

  test('an upstream timeout comes back as an isError result and the connection lives on', async () => {
    // server-everything in process: the subject is the timeout's mapping, not the process.
    const gateway = new Gateway(testGatewayOptions({ transport: inMemoryUpstreams({ slow: everything }) }));
    await gateway.applyConfig([inMemoryConfig('slow', 's_', { timeout_secs: 1, allowed_tools: ['echo', 'trigger-long-running-operation'] })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
    const session = createGatewayServer({ gateway, kilnTools: [], log: silentLogger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const client = new Client({ name: 'mem', version: '1' });
    await client.connect(clientSide);
    try {
      const slow = await client.callTool({ name: 's_trigger-long-running-operation', arguments: { duration: 4, steps: 4 } });
      assert.equal(slow.isError, true);
      assert.match(textOf(slow), /did not answer within 1 s/);
      assert.match(textOf(await client.callTool({ name: 's_echo', arguments: { message: 'alive' } })), /alive/);
    } finally {
      await client.close();
      session.dispose();
      await gateway.dispose();
    }
  });

  describe('over streamable HTTP on 127.0.0.1', () => {
    let gateway: Gateway;
    let handle: GatewayHttpHandle;
    let kilnRoot: string;
    before(async () => {
      kilnRoot = await makeWorkspace();
      gateway = new Gateway(testGatewayOptions({ transport: inMemoryUpstreams({ every: everything }) }));
      await gateway.applyConfig([inMemoryConfig('every', 'ev_', { allowed_tools: ['echo'] })]);
      const kilnTools = createKilnTools({ kilnRoot, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false });
      handle = await serveGatewayHttp({ gateway, kilnTools, log: silentLogger, port: 0 });
    });
    after(async () => {
      await handle.dispose();
      await gateway.dispose();
    });

    test('with the bearer token: tools listed and called; list_changed announced when an upstream goes', async () => {
      const client = new Client({ name: 'http-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers: { Authorization: `Bearer ${handle.token}` } } }));
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        changed++;
      });
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('ev_echo') && names.includes('get_kiln_info'));
      assert.match(textOf(await client.callTool({ name: 'ev_echo', arguments: { message: 'http' } })), /http/);
      await gateway.applyConfig([]);
      await waitFor(() => changed > 0, 5000, 'tools/list_changed');
      const after = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(!after.includes('ev_echo'));
      await client.close();
    });

    test('a 401 names the protected-resource metadata, which says the token is pre-shared (no OAuth server)', async () => {
      const denied = await fetch(handle.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      assert.equal(denied.status, 401);
      const challenge = denied.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer /);
      assert.match(challenge, /pre-shared/);
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
      assert.equal(metadataUrl, `http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp`);
      const metadata = (await (await fetch(metadataUrl!)).json()) as Record<string, unknown>;
      assert.equal(metadata.resource, handle.url);
      assert.deepEqual(metadata.authorization_servers, []);
      assert.match(String(metadata.hearth_token), /pre-shared/);
      assert.ok(!JSON.stringify(metadata).includes(handle.token), 'the metadata never carries the token');
      // A foreign Host still gets nothing, metadata included (DNS rebinding).
      const foreign = await new Promise<number>((done, fail) => {
        request({ host: '127.0.0.1', port: handle.port, path: '/.well-known/oauth-protected-resource', headers: { host: `evil.example:${handle.port}` } }, (res) => (res.resume(), done(res.statusCode ?? 0)))
          .on('error', fail)
          .end();
      });
      assert.equal(foreign, 403);
    });

    test('refuses a missing or wrong token and a foreign Host or Origin', async () => {
      assert.equal(await rawPost(handle.port, {}), 401);
      assert.equal(await rawPost(handle.port, { authorization: 'Bearer wrong' }), 401);
      assert.equal(await rawPost(handle.port, { authorization: `Bearer ${handle.token}`, host: `evil.example:${handle.port}` }), 403);
      assert.equal(await rawPost(handle.port, { authorization: `Bearer ${handle.token}`, origin: 'http://evil.example' }), 403);
      assert.equal(await rawPost(handle.port, { authorization: `Bearer ${handle.token}` }), 200);
      assert.match(handle.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    });
  });
});
