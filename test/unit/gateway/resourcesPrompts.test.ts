// Resources, resource templates and prompts through the gateway: a real SDK upstream in process
// (its entries filtered by the upstream's globs and named with its prefix), the kiln's notes as
// `hearth://kiln/…` resources read through the confined reader, list_changed forwarded.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Gateway } from '../../../src/core/gateway/gateway';
import { createGatewayServer } from '../../../src/core/gateway/gatewayServer';
import { silentLogger } from '../../../src/core/host';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { tempDir, testGatewayOptions, waitFor } from './helpers';
import { inMemoryConfig, inMemoryUpstreams } from './inMemoryUpstream';

let server: McpServer | undefined;

function catalogServer(): McpServer {
  server = new McpServer({ name: 'catalog', version: '1' });
  server.registerResource('readme', 'docs://readme', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'read me' }] }));
  server.registerResource('secret', 'docs://secret', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'hidden' }] }));
  server.registerResource('big', 'docs://big', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'x'.repeat(2 * 1024 * 1024) }] }));
  server.registerResource('page', new ResourceTemplate('docs://pages/{id}', { list: undefined }), {}, async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `page ${id}` }] }));
  server.registerPrompt('greet', { argsSchema: { who: z.string() } }, ({ who }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Greet ${who}` } }] }));
  server.registerPrompt('secret_prompt', {}, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'no' } }] }));
  return server;
}

describe('resources and prompts through the gateway', () => {
  let gateway: Gateway;
  let client: Client;
  let dispose: () => void;
  let kilnRoot: string;
  before(async () => {
    kilnRoot = await tempDir('catalog');
    await mkdir(join(kilnRoot, 'sub dir'));
    await writeFile(join(kilnRoot, 'hello.md'), '# Hello\nfrom the kiln\n');
    await writeFile(join(kilnRoot, 'sub dir', 'a b.md'), 'spaced\n');
    await writeFile(join(kilnRoot, '..', 'outside-catalog.md'), 'outside\n').catch(() => {});
    gateway = new Gateway(testGatewayOptions({ transport: inMemoryUpstreams({ cat: () => ({ server: catalogServer() }) }) }));
    await gateway.applyConfig([inMemoryConfig('cat', 'c_', { blocked_tools: ['secret*'], max_message_mb: 1 })]);
    const kilnTools = createKilnTools({ kilnRoot, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false });
    const session = createGatewayServer({ gateway, kilnTools, log: silentLogger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    client = new Client({ name: 'catalog-test', version: '1' });
    await client.connect(clientSide);
    dispose = () => session.dispose();
  });
  after(async () => {
    await client.close();
    dispose();
    await gateway.dispose();
  });

  test('resources: kiln notes and the upstream’s, prefixed and filtered; read from where they come', async () => {
    assert.ok(client.getServerCapabilities()?.resources && client.getServerCapabilities()?.prompts);
    const { resources } = await client.listResources();
    const byName = new Map(resources.map((resource) => [resource.name, resource.uri]));
    assert.equal(byName.get('hello.md'), 'hearth://kiln/hello.md');
    assert.equal(byName.get('sub dir/a b.md'), 'hearth://kiln/sub%20dir/a%20b.md');
    assert.equal(byName.get('c_readme'), 'docs://readme');
    assert.ok(!byName.has('c_secret'), 'blocked by blocked_tools');
    const note = await client.readResource({ uri: 'hearth://kiln/sub%20dir/a%20b.md' });
    assert.equal((note.contents[0] as { text: string }).text, 'spaced\n');
    assert.equal(((await client.readResource({ uri: 'docs://readme' })).contents[0] as { text: string }).text, 'read me');
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((template) => [template.name, template.uriTemplate]), [['c_page', 'docs://pages/{id}']]);
    assert.equal(((await client.readResource({ uri: 'docs://pages/7' })).contents[0] as { text: string }).text, 'page 7');
  });

  test('hostile reads: outside the kiln, a blocked or unknown URI, a resource over max_message_mb', async () => {
    for (const uri of ['hearth://kiln/..%2Foutside-catalog.md', 'hearth://kiln/../outside-catalog.md', 'hearth://kiln/%E0%A4%A', 'docs://secret', 'nope://x']) {
      await assert.rejects(client.readResource({ uri }), (error: McpError) => error.code === -32002, uri);
    }
    await assert.rejects(client.readResource({ uri: 'docs://big' }), /larger than max_message_mb \(1 MB\)/);
  });

  test('prompts: prefixed, filtered, got with their arguments; an unknown one is −32602', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((prompt) => prompt.name), ['c_greet']);
    const got = await client.getPrompt({ name: 'c_greet', arguments: { who: 'Ada' } });
    assert.equal((got.messages[0].content as { text: string }).text, 'Greet Ada');
    await assert.rejects(client.getPrompt({ name: 'c_secret_prompt' }), (error: McpError) => error.code === -32602);
  });

  test('list_changed: an upstream adding a resource is announced to the client', async () => {
    let announced = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void announced++);
    server!.registerResource('late', 'docs://late', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'late' }] }));
    await waitFor(() => announced > 0, 5000, 'resources/list_changed');
    assert.ok((await client.listResources()).resources.some((resource) => resource.name === 'c_late'));
  });
});
