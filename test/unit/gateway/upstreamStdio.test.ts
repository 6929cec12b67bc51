import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Gateway } from '../../../src/core/gateway/gateway';
import { GatewayError } from '../../../src/core/gateway/gatewayErrors';
import { everythingStdio, FILESYSTEM, serverConfig, testGatewayOptions, textOf, tempDir } from './helpers';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

describe('upstreams over stdio (server-everything, server-filesystem)', () => {
  const gateway = new Gateway(testGatewayOptions());
  after(() => gateway.dispose());

  test('tools are exposed with the prefix, filtered by allow/block globs on the upstream name, and callable', async () => {
    const dir = await tempDir('fs');
    await writeFile(join(dir, 'hello.txt'), 'hello from disk');
    await gateway.applyConfig([
      everythingStdio('every', 'ev_', { allowed_tools: ['get-*', 'echo'], blocked_tools: ['get-tiny-*', 'get-env'] }),
      serverConfig({ name: 'fs', prefix: 'fs_', transport: { type: 'stdio', command: process.execPath, args: [FILESYSTEM, dir] }, blocked_tools: ['write_*', 'edit_*', 'move_*', 'create_*'] }),
    ]);
    const byUpstream = (name: string) => gateway.tools().filter((tool) => tool.upstream === name).map((tool) => tool.exposedName).sort();
    const every = byUpstream('every');
    assert.ok(every.includes('ev_echo'), every.join());
    assert.ok(every.includes('ev_get-sum'));
    assert.ok(!every.includes('ev_get-tiny-image'), 'blocked glob wins');
    assert.ok(!every.includes('ev_get-env'), 'blocked name');
    assert.ok(!every.some((name) => name.startsWith('ev_trigger')), 'not in allowed_tools');
    const fs = byUpstream('fs');
    assert.ok(fs.includes('fs_read_text_file'), fs.join());
    assert.ok(!fs.some((name) => name.startsWith('fs_write')));

    const echo = await gateway.callTool('ev_echo', { message: 'hi there' });
    assert.match(textOf(echo), /hi there/);
    const sum = await gateway.callTool('ev_get-sum', { a: 2, b: 40 });
    assert.match(textOf(sum), /42/);
    const file = await gateway.callTool('fs_read_text_file', { path: join(dir, 'hello.txt') });
    assert.match(textOf(file), /hello from disk/);

    await assert.rejects(gateway.callTool('ev_get-env', {}), (error: GatewayError) => error.code === 'gateway.unknown_tool');
    const status = gateway.statuses().find((s) => s.name === 'every')!;
    assert.equal(status.state.kind, 'ready');
    assert.deepEqual(gateway.health(), { ready: 2, total: 2 });
  });
});
