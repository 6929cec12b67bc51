import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { Gateway } from '../../../src/core/gateway/gateway';
import type { GatewayError } from '../../../src/core/gateway/gatewayErrors';
import { ProcessTransport } from '../../../src/core/gateway/processTransport';
import { TOOL_NAME_PATTERN, exposedToolName } from '../../../src/core/gateway/toolNames';
import { EVERYTHING, everythingStdio, isAlive, serverConfig, stopChild, testGatewayOptions, textOf, waitFor, tempDir } from './helpers';
import { dynamic, everything, inMemoryConfig, inMemoryUpstreams, mute } from './inMemoryUpstream';

const DYNAMIC = resolve('test/unit/gateway/fixtures/dynamicServer.mjs');
const BAD = resolve('test/unit/gateway/fixtures/badHandshake.mjs');

function pidOf(gateway: Gateway, name: string): number {
  // The transport is private; the child's pid is what the test needs to kill it like a crash would.
  const upstream = (gateway as unknown as { upstreams: Map<string, { upstream: { transport?: unknown } }> }).upstreams.get(name)!.upstream;
  const transport = upstream.transport;
  assert.ok(transport instanceof ProcessTransport);
  return transport.pid!;
}

describe('supervision of upstreams', () => {
  const gateways: Gateway[] = [];
  const make = (overrides = {}) => {
    const gateway = new Gateway(testGatewayOptions(overrides));
    gateways.push(gateway);
    return gateway;
  };
  after(() => Promise.all(gateways.map((g) => g.dispose())));

  test('a long exposed name is shortened with a stable hash and still routes to the original tool', async () => {
    const gateway = make({ transport: inMemoryUpstreams({ dyn: dynamic }) });
    const original = 'a_tool_with_a_really_long_name_that_keeps_going_and_going_beyond_limits';
    await gateway.applyConfig([inMemoryConfig('dyn', 'dynamic_upstream_')]);
    const tool = gateway.tools().find((t) => t.originalName === original)!;
    assert.ok(tool, 'long tool listed');
    assert.ok(tool.exposedName.length <= 64);
    assert.match(tool.exposedName, TOOL_NAME_PATTERN);
    assert.equal(tool.exposedName, exposedToolName('dynamic_upstream_', original), 'stable');
    assert.notEqual(exposedToolName('dynamic_upstream_', original + 'x'), tool.exposedName);
    assert.equal(textOf(await gateway.callTool(tool.exposedName, { word: 'ok' })), 'long:ok');
  });

  test('tools/list_changed from the upstream refreshes the served tools', async () => {
    const gateway = make({ transport: inMemoryUpstreams({ dyn: dynamic }) });
    await gateway.applyConfig([inMemoryConfig('dyn', 'd_')]);
    let announced = 0;
    gateway.onDidChangeTools(() => announced++);
    assert.ok(!gateway.hasTool('d_fresh'));
    await gateway.callTool('d_add_tool', { name: 'fresh' });
    await waitFor(() => gateway.hasTool('d_fresh'), 5000, 'new tool');
    assert.ok(announced >= 1);
    assert.equal(textOf(await gateway.callTool('d_fresh', {})), 'i am fresh');
  });

  test('an upstream tool error comes back as a call error naming tool and upstream', async () => {
    const gateway = make({ transport: inMemoryUpstreams({ dyn: dynamic }) });
    await gateway.applyConfig([inMemoryConfig('dyn', 'd_')]);
    const result = await gateway.callTool('d_fail', {});
    assert.equal(result.isError, true);
    assert.match(textOf(result), /deliberate failure/);
  });

  test('timeout_secs bounds a call; the error names tool, upstream and limit', async () => {
    // The real server-everything, in process.
    const gateway = make({ transport: inMemoryUpstreams({ slow: everything }) });
    await gateway.applyConfig([inMemoryConfig('slow', 's_', { timeout_secs: 1 })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
    const started = Date.now();
    await assert.rejects(gateway.callTool('s_trigger-long-running-operation', { duration: 5, steps: 5 }), (error: GatewayError) => {
      assert.equal(error.code, 'gateway.upstream_timeout');
      assert.match(error.message, /s_trigger-long-running-operation/);
      assert.match(error.message, /"slow"/);
      assert.match(error.message, /1 s/);
      return true;
    });
    assert.ok(Date.now() - started < 3000);
    // The upstream survives a timeout.
    assert.match(textOf(await gateway.callTool('s_echo', { message: 'still here' })), /still here/);
  });

  test('subprocess: SIGKILLed upstream: calls fail at once while down, then its tools come back', async () => {
    const gateway = make({ backoff: { initialMs: 700, maxMs: 1000, jitter: 0 } });
    await gateway.applyConfig([everythingStdio('crashy', 'c_')]);
    const pid = pidOf(gateway, 'crashy');
    process.kill(pid, 'SIGKILL');
    await waitFor(() => gateway.statuses()[0].state.kind === 'down', 5000, 'down');
    const state = gateway.statuses()[0].state;
    assert.ok(state.kind === 'down' && state.nextRetryAt !== undefined, 'retry scheduled');
    const started = Date.now();
    await assert.rejects(gateway.callTool('c_echo', { message: 'x' }), (error: GatewayError) => error.code === 'gateway.upstream_down' && /crashy/.test(error.message));
    // Under the 700 ms backoff: a call that waited for the retry would not pass; a loaded machine still does.
    const took = Date.now() - started;
    assert.ok(took < 500, `fails fast (${took} ms)`);
    assert.ok(!gateway.tools().some((t) => t.upstream === 'crashy'), 'not served while down');
    await waitFor(() => gateway.statuses()[0].state.kind === 'ready', 10_000, 'back');
    assert.notEqual(pidOf(gateway, 'crashy'), pid);
    assert.match(textOf(await gateway.callTool('c_echo', { message: 'back' })), /back/);
  });

  test('auto_reconnect = false stays down and says so', async () => {
    const transport = inMemoryUpstreams({ once: everything });
    const gateway = make({ transport });
    await gateway.applyConfig([inMemoryConfig('once', 'o_', { auto_reconnect: false })]);
    await transport.links.get('once')![0].drop();
    await waitFor(() => gateway.statuses()[0].state.kind === 'down', 5000, 'down');
    await new Promise((done) => setTimeout(done, 400));
    const state = gateway.statuses()[0].state;
    assert.ok(state.kind === 'down' && state.nextRetryAt === undefined);
    await assert.rejects(gateway.callTool('o_echo', { message: 'x' }), (error: GatewayError) => error.code === 'gateway.upstream_down' && /auto_reconnect is off/.test(error.message));
    assert.equal(transport.links.get('once')!.length, 1, 'no reconnect was tried');
    await gateway.restart('once');
    assert.equal(gateway.statuses()[0].state.kind, 'ready');
  });

  test('subprocess: a command that does not exist: down with a clear spawn error', async () => {
    const gateway = make();
    await gateway.applyConfig([serverConfig({ name: 'ghost', prefix: 'g_', auto_reconnect: false, transport: { type: 'stdio', command: 'hearth-no-such-command-xyz' } })]);
    const state = gateway.statuses()[0].state;
    assert.equal(state.kind, 'down');
    assert.ok(state.kind === 'down' && state.code === 'gateway.upstream_spawn');
    assert.match(state.kind === 'down' ? state.error : '', /hearth-no-such-command-xyz.*not found/);
  });

  test('subprocess: a server failing its handshake leaves no process behind (its own children included)', async () => {
    const dir = await tempDir('bad');
    const pidFile = join(dir, 'pids');
    const gateway = make({ handshakeTimeoutMs: 800 });
    await gateway.applyConfig([serverConfig({ name: 'bad', prefix: 'b_', auto_reconnect: false, transport: { type: 'stdio', command: process.execPath, args: [BAD, pidFile] } })]);
    const state = gateway.statuses()[0].state;
    assert.ok(state.kind === 'down' && state.code === 'gateway.upstream_handshake', JSON.stringify(state));
    assert.match(state.kind === 'down' ? state.error : '', /listening to nobody/, 'stderr tail explains');
    const [pid, childPid] = (await readFile(pidFile, 'utf8')).split(' ').map(Number);
    await waitFor(() => !isAlive(pid) && !isAlive(childPid), 3000, 'processes gone');
  });

  test('a server that starts slower than its timeout_secs still comes up (the handshake gets at least 30 s)', async () => {
    // server-everything, answering only after 1.5 s: longer than timeout_secs (1 s).
    const gateway = make({ transport: inMemoryUpstreams({ late: (ctx) => ({ ...everything(ctx)!, startAfterMs: 1500 }) }) });
    await gateway.applyConfig([inMemoryConfig('late', 'l_', { timeout_secs: 1, auto_reconnect: false })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
    assert.match(textOf(await gateway.callTool('l_echo', { message: 'late but here' })), /late but here/);
  });

  test('subprocess: a server exiting at start reports its stderr', async () => {
    const gateway = make();
    await gateway.applyConfig([serverConfig({ name: 'exits', prefix: 'e_', auto_reconnect: false, transport: { type: 'stdio', command: process.execPath, args: ['-e', 'console.error("missing API token"); process.exit(3)'] } })]);
    const state = gateway.statuses()[0].state;
    assert.ok(state.kind === 'down' && state.code === 'gateway.upstream_handshake');
    assert.match(state.kind === 'down' ? state.error : '', /missing API token/);
  });

  test('subprocess: stdio env: {env:VAR} resolved, the rest of the environment inherited', async () => {
    process.env.HEARTH_TEST_SECRET = 's3cret-value';
    const gateway = make();
    await gateway.applyConfig([everythingStdio('envy', 'v_', { transport: { type: 'stdio', command: process.execPath, args: [resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'], env: { TOKEN: '{env:HEARTH_TEST_SECRET}', MODE: 'DEBUG' } } })]);
    const env = JSON.parse(textOf(await gateway.callTool('v_get-env', {}))) as Record<string, string>;
    assert.equal(env.TOKEN, 's3cret-value');
    assert.equal(env.MODE, 'DEBUG', 'a bare word is a value');
    assert.equal(env.HEARTH_TEST_SECRET, 's3cret-value', 'inherited');
  });

  test('overlapping config reloads and a stop during a slow handshake leave exactly the last state', async () => {
    // The mute server's handshake would run for 20 s: finishing well under that shows it was abandoned.
    const transport = inMemoryUpstreams({ slow: mute, x: everything });
    const gateway = make({ handshakeTimeoutMs: 20_000, transport });
    const first = gateway.applyConfig([inMemoryConfig('slow', 'sl_'), inMemoryConfig('x', 'x_')]);
    const second = gateway.applyConfig([inMemoryConfig('x', 'x_', { timeout_secs: 7 })]);
    const started = Date.now();
    const [, result] = await Promise.all([first, second]);
    assert.deepEqual(result.stopped, ['slow']);
    assert.deepEqual(result.restarted, ['x']);
    const took = Date.now() - started;
    assert.ok(took < 10_000, `the removed slow server did not hold the reload up (${took} ms)`);
    assert.deepEqual(gateway.upstreamNames, ['x']);
    assert.equal(gateway.statuses()[0].state.kind, 'ready');
    assert.equal(transport.links.get('x')!.length, 2, 'x was restarted with its new entry');
  });

  test('a config reload arriving while the gateway is disposed (the editor closing) starts no server', async () => {
    const transport = inMemoryUpstreams({ x: everything, y: everything });
    const gateway = make({ transport });
    await gateway.applyConfig([inMemoryConfig('x', 'x_')]);
    const disposing = gateway.dispose();
    // The editor applies reloads once the gateway's code has loaded: one can land during or after the dispose.
    const during = gateway.applyConfig([inMemoryConfig('x', 'x_'), inMemoryConfig('y', 'y_')]);
    await disposing;
    const after = gateway.applyConfig([inMemoryConfig('y', 'y_')]);
    for (const late of [during, after]) await assert.rejects(late, (error: GatewayError) => error.code === 'gateway.stopped');
    assert.deepEqual(gateway.upstreamNames, []);
    assert.equal(transport.links.get('y'), undefined, 'y was never started');
    assert.equal(transport.links.get('x')!.length, 1);
  });

  test('subprocess: process trees: a crashed leader takes its children along; stop ends the whole tree', async () => {
    const dir = await tempDir('tree');
    const gateway = make();
    const tree = (name: string) => serverConfig({ name, prefix: `${name}_`, transport: { type: 'stdio', command: process.execPath, args: [DYNAMIC, '--tree', join(dir, name)] } });
    await gateway.applyConfig([tree('t1'), tree('t2')]);
    const pids = async (name: string) => (await readFile(join(dir, name), 'utf8')).split(' ').map(Number);
    const [leader1, child1] = await pids('t1');
    assert.ok(isAlive(child1));
    process.kill(leader1, 'SIGKILL');
    await waitFor(() => !isAlive(child1), 3000, 'orphaned child of a crashed server ended');
    await waitFor(() => gateway.statuses()[0].state.kind === 'ready', 5000, 't1 back');
    const [leader1b, child1b] = await pids('t1');
    const [leader2, child2] = await pids('t2');
    await gateway.dispose();
    // Signals are asynchronous: give the kernel a moment to reap the grandchildren.
    await waitFor(() => [leader1b, child1b, leader2, child2].every((pid) => !isAlive(pid)), 2000, 'every process of both trees ended');
  });

  test('subprocess: a host killed abruptly (SIGKILL, no cleanup) still takes its upstream trees along', async () => {
    const dir = await tempDir('host');
    const pidFile = join(dir, 'pids');
    const host = spawn(process.execPath, ['--import', 'tsx', resolve('test/unit/gateway/fixtures/gatewayHost.ts'), pidFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    host.stdout!.on('data', (chunk) => (out += chunk));
    let tree: number[] = [];
    try {
      // A guard only: starting tsx, the gateway and its upstream took more than 15 s on a loaded machine.
      await waitFor(() => out.includes('READY') || host.exitCode !== null, 60_000, 'host ready');
      assert.ok(out.includes('READY') && !out.includes('NOT READY'), `host said: ${out}`);
      const [leader, child] = (await readFile(pidFile, 'utf8')).split(' ').map(Number);
      tree = [-leader, leader, child];
      assert.ok(isAlive(leader) && isAlive(child));
      host.kill('SIGKILL');
      await waitFor(() => !isAlive(leader) && !isAlive(child), 5000, 'upstream tree ended after its host died');
    } finally {
      // Should the test fail, leave no orphans behind on the CI machine: a live host would also keep
      // this file's process, and so the whole run, from ever ending.
      await stopChild(host);
      for (const pid of tree) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone, as it should be
        }
      }
    }
  });

  test('subprocess: stopping the gateway ends every child process tree; applyConfig restarts only changed upstreams', async () => {
    const gateway = make();
    const a = everythingStdio('a', 'a_');
    const b = everythingStdio('b', 'b_');
    await gateway.applyConfig([a, b]);
    const pidA = pidOf(gateway, 'a');
    const pidB = pidOf(gateway, 'b');
    const result = await gateway.applyConfig([a, { ...b, timeout_secs: 5 }]);
    assert.deepEqual(result.restarted, ['b']);
    assert.deepEqual(result.unchanged, ['a']);
    assert.equal(pidOf(gateway, 'a'), pidA, 'a untouched');
    assert.ok(!isAlive(pidB), 'old b ended');
    const pids = [pidOf(gateway, 'a'), pidOf(gateway, 'b')];
    await gateway.dispose();
    for (const pid of pids) assert.ok(!isAlive(pid), `pid ${pid} ended`);
    assert.deepEqual(gateway.health(), { ready: 0, total: 0 });
  });
});
