/**
 * Hostile upstreams: a message over `max_message_mb` (the real server-filesystem reading a file
 * over a small configured limit), a server writing with no newline, one printing endless non-JSON
 * lines. Each fails that call or that upstream with an error naming the cause, the upstream
 * reconnects with backoff, the gateway (this process) keeps serving, and what is read is bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Gateway } from '../../../src/core/gateway/gateway';
import { GatewayError } from '../../../src/core/gateway/gatewayErrors';
import { JsonRpcLineReader } from '../../../src/core/gateway/jsonRpcLines';
import { MAX_BAD_LINES } from '../../../src/core/gateway/processTransport';
import { everythingStdio, FILESYSTEM, freePort, serverConfig, startEverythingHttp, stopChild, tempDir, testGatewayOptions, textOf, waitFor } from '../gateway/helpers';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

const NOISY = join(import.meta.dirname, 'fixtures', 'noisyServer.mjs');
const MB = 1024 * 1024;

test('a tool result over max_message_mb fails that call, the upstream reconnects, the others keep working', { timeout: 120_000 }, async () => {
  const dir = await tempDir('big');
  await writeFile(join(dir, 'big.log'), 'log line\n'.repeat(Math.ceil((2 * MB) / 9)));
  await writeFile(join(dir, 'small.txt'), 'still here');
  const warnings: string[] = [];
  const gateway = new Gateway(testGatewayOptions({ log: sinkLogger((level, m) => void (level === 'warn' && warnings.push(m))) }));
  try {
    await gateway.applyConfig([
      serverConfig({ name: 'fs', prefix: 'fs_', max_message_mb: 1, transport: { type: 'stdio', command: process.execPath, args: [FILESYSTEM, dir] } }),
      everythingStdio('every', 'ev_'),
    ]);
    assert.deepEqual(gateway.health(), { ready: 2, total: 2 });
    await assert.rejects(gateway.callTool('fs_read_text_file', { path: join(dir, 'big.log') }), (error: GatewayError) => {
      assert.equal(error.code, 'gateway.upstream_down');
      assert.match(error.message, /more than 1 MB \(max_message_mb = 1\)/);
      return true;
    });
    assert.match(textOf(await gateway.callTool('ev_echo', { message: 'unaffected' })), /unaffected/);
    assert.ok(warnings.some((w) => /\[mcp:fs\] disconnected: it sent a message of more than 1 MB/.test(w)), warnings.join('\n'));
    await waitFor(() => gateway.statuses().find((s) => s.name === 'fs')?.state.kind === 'ready', 60_000, 'fs to reconnect');
    assert.match(textOf(await gateway.callTool('fs_read_text_file', { path: join(dir, 'small.txt') })), /still here/);
  } finally {
    await gateway.dispose();
  }
});

for (const mode of ['no-newline', 'lines'] as const) {
  test(`an upstream writing ${mode === 'lines' ? 'endless non-JSON lines' : 'with no newline'} is broken after a bounded read and backs off`, { timeout: 60_000 }, async () => {
    const dir = await tempDir('noisy');
    const count = join(dir, 'written');
    const gateway = new Gateway(testGatewayOptions({ backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 } }));
    try {
      await gateway.applyConfig([serverConfig({ name: 'noisy', prefix: 'n_', max_message_mb: 1, transport: { type: 'stdio', command: process.execPath, args: [NOISY, mode, count] } })]);
      const state = gateway.statuses()[0].state;
      assert.equal(state.kind, 'down');
      if (state.kind !== 'down') return;
      assert.equal(state.code, 'gateway.upstream_handshake');
      if (mode === 'no-newline') assert.match(state.error, /more than 1 MB \(max_message_mb = 1\)/);
      else assert.match(state.error, new RegExp(`${MAX_BAD_LINES} lines in a row that are not JSON-RPC, e.g. "starting up, please wait`));
      assert.ok(state.nextRetryAt !== undefined && state.nextRetryAt > Date.now() + 30_000, 'it backs off before trying again');
      // The server was ended, and what it got out before it was is bounded (its pipe stalled once we stopped reading).
      const written = Number(await waitFor(() => { try { return readFileSync(count, 'utf8'); } catch { return undefined; } }, 20_000, 'the server to exit'));
      assert.ok(written < 4 * MB, `${written} bytes written before the server was ended`);
    } finally {
      await gateway.dispose();
    }
  });
}

test('the line reader holds at most max bytes of an oversize line, skips it, and reads the next message', () => {
  const reader = new JsonRpcLineReader(1000);
  const events = [];
  for (let i = 0; i < 100; i++) events.push(...reader.push(Buffer.from('y'.repeat(700))));
  assert.ok(reader.buffered <= 1000);
  events.push(...reader.push(Buffer.from('tail\n{"jsonrpc":"2.0","id":1,"result":{}}\nnot json\n[1]\n')));
  assert.deepEqual(events.map((e) => e.kind), ['oversize', 'message', 'not-json', 'invalid']);
  assert.equal(reader.buffered, 0);
});

for (const mode of ['streamableHttp', 'sse'] as const) {
  test(`a remote (${mode}) tool result over max_message_mb fails that call and the upstream reconnects`, { timeout: 120_000 }, async () => {
    const port = await freePort();
    const server = await startEverythingHttp(mode, port);
    const gateway = new Gateway(testGatewayOptions());
    try {
      const url = `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`;
      await gateway.applyConfig([serverConfig({ name: 'remote', prefix: 'r_', max_message_mb: 1, timeout_secs: 60, allowed_tools: ['echo'], transport: { type: mode === 'sse' ? 'sse' : 'http', url } })]);
      assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
      await assert.rejects(gateway.callTool('r_echo', { message: 'y'.repeat(1.5 * MB) }), (error: GatewayError) => {
        assert.equal(error.code, 'gateway.upstream_down');
        assert.match(error.message, /more than 1 MB \(max_message_mb = 1\)/);
        return true;
      });
      await waitFor(() => gateway.statuses()[0].state.kind === 'ready', 60_000, 'the remote upstream to reconnect');
      assert.match(textOf(await gateway.callTool('r_echo', { message: 'small again' })), /small again/);
    } finally {
      await gateway.dispose();
      await stopChild(server);
    }
  });
}
