import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { Gateway } from '../../../src/core/gateway/gateway';
import type { GatewayError } from '../../../src/core/gateway/gatewayErrors';
import { freePort, serverConfig, startEverythingHttp, stopChild, testGatewayOptions, textOf, waitFor } from './helpers';

describe('upstreams over SSE and streamable HTTP (server-everything on 127.0.0.1)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('SSE: tools prefixed and callable', async () => {
    const port = await freePort();
    const child = await startEverythingHttp('sse', port);
    cleanups.push(() => stopChild(child));
    const gateway = new Gateway(testGatewayOptions());
    cleanups.push(() => gateway.dispose());
    await gateway.applyConfig([serverConfig({ name: 'sse', prefix: 'sse_', transport: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
    assert.ok(gateway.hasTool('sse_echo'));
    assert.match(textOf(await gateway.callTool('sse_get-sum', { a: 1, b: 2 })), /3/);
  });

  test('SSE: a dropped server is noticed without any call, and reconnected', async () => {
    const port = await freePort();
    let child = await startEverythingHttp('sse', port);
    cleanups.push(() => stopChild(child));
    const gateway = new Gateway(testGatewayOptions());
    cleanups.push(() => gateway.dispose());
    await gateway.applyConfig([serverConfig({ name: 'sse', prefix: 'sse_', transport: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready');
    await stopChild(child);
    await waitFor(() => gateway.statuses()[0].state.kind !== 'ready', 5000, 'drop noticed');
    child = await startEverythingHttp('sse', port);
    await waitFor(() => gateway.statuses()[0].state.kind === 'ready', 10_000, 'reconnected');
    assert.match(textOf(await gateway.callTool('sse_echo', { message: 'sse again' })), /sse again/);
  });

  test('streamable HTTP: killed server → down, calls fail fast, back after it restarts on the same port', async () => {
    const port = await freePort();
    let child = await startEverythingHttp('streamableHttp', port);
    cleanups.push(() => stopChild(child));
    const gateway = new Gateway(testGatewayOptions());
    cleanups.push(() => gateway.dispose());
    await gateway.applyConfig([serverConfig({ name: 'web', prefix: 'web_', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
    assert.match(textOf(await gateway.callTool('web_echo', { message: 'over http' })), /over http/);

    await stopChild(child);
    await waitFor(() => gateway.statuses()[0].state.kind !== 'ready', 5000, 'drop noticed');
    const started = Date.now();
    await assert.rejects(gateway.callTool('web_echo', { message: 'x' }), (error: GatewayError) => error.code === 'gateway.upstream_down');
    assert.ok(Date.now() - started < 500, 'fails fast while down');

    child = await startEverythingHttp('streamableHttp', port);
    await waitFor(() => gateway.statuses()[0].state.kind === 'ready', 10_000, 'reconnected');
    assert.match(textOf(await gateway.callTool('web_echo', { message: 'again' })), /again/);
  });

  test('auth_header reaches an SSE server as the Authorization header ({env:VAR} resolved)', async () => {
    const recorder = spawn(process.execPath, [resolve('test/unit/gateway/fixtures/sseRecorder.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => stopChild(recorder));
    // Fails rather than waits forever should the recorder die before it listens.
    const port = await new Promise<number>((done, fail) => {
      recorder.stdout!.on('data', (chunk: Buffer) => {
        const match = /PORT (\d+)/.exec(chunk.toString());
        if (match) done(Number(match[1]));
      });
      recorder.once('exit', (code) => fail(new Error(`sseRecorder exited with ${code} before listening`)));
    });
    process.env.HEARTH_TEST_SSE_TOKEN = 'tok-123';
    const gateway = new Gateway(testGatewayOptions());
    cleanups.push(() => gateway.dispose());
    await gateway.applyConfig([serverConfig({ name: 'rec', prefix: 'rec_', transport: { type: 'sse', url: `http://127.0.0.1:${port}/sse`, auth_header: 'Bearer {env:HEARTH_TEST_SSE_TOKEN}' } })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
    const seen = JSON.parse(textOf(await gateway.callTool('rec_whoami', {}))) as string[];
    assert.ok(seen.length >= 2, 'GET stream and POSTs recorded');
    for (const header of seen) assert.equal(header, 'Bearer tok-123');
  });
});
