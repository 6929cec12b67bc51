// roots through the gateway: an upstream's roots/list reaches the gateway's client (the one that
// has roots) and its answer comes back; a client's roots/list_changed reaches the upstream; with
// no client that has roots the upstream gets −32601, as from an MCP client without them.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListRootsRequestSchema, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Gateway } from '../../../src/core/gateway/gateway';
import { createGatewayServer } from '../../../src/core/gateway/gatewayServer';
import { silentLogger } from '../../../src/core/host';
import { testGatewayOptions, textOf, waitFor } from './helpers';
import { inMemoryConfig, inMemoryUpstreams } from './inMemoryUpstream';

let rootsChanged = 0;

function rootsServer(): McpServer {
  const server = new McpServer({ name: 'roots-fixture', version: '1' });
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => void rootsChanged++);
  server.registerTool('where', {}, async () => {
    try {
      const { roots } = await server.server.listRoots();
      return { content: [{ type: 'text', text: roots.map((root) => `${root.name}=${root.uri}`).join(',') }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `refused: ${(error as { code?: number }).code}` }] };
    }
  });
  return server;
}

describe('roots through the gateway', () => {
  const gateway = new Gateway(testGatewayOptions({ transport: inMemoryUpstreams({ rt: () => ({ server: rootsServer() }) }) }));
  const closers: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closers) await close();
    await gateway.dispose();
  });

  async function connect(withRoots: boolean): Promise<Client> {
    const session = createGatewayServer({ gateway, kilnTools: [], log: silentLogger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const client = new Client({ name: withRoots ? 'with-roots' : 'without', version: '1' }, { capabilities: withRoots ? { roots: { listChanged: true } } : {} });
    if (withRoots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///home/me/notes', name: 'notes' }] }));
    await client.connect(clientSide);
    closers.push(async () => (await client.close(), session.dispose()));
    return client;
  }

  test('no client with roots: the upstream is told −32601', async () => {
    await gateway.applyConfig([inMemoryConfig('rt', 'rt_')]);
    const client = await connect(false);
    assert.equal(textOf(await client.callTool({ name: 'rt_where', arguments: {} })), 'refused: -32601');
  });

  test('the calling client’s roots reach the upstream; its roots/list_changed too', async () => {
    const client = await connect(true);
    assert.equal(textOf(await client.callTool({ name: 'rt_where', arguments: {} })), 'notes=file:///home/me/notes');
    await client.sendRootsListChanged();
    await waitFor(() => rootsChanged > 0 || undefined, 5000, 'roots/list_changed at the upstream');
  });
});
