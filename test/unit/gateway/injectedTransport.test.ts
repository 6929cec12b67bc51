// The gateway's supervision with an injected transport (in-process servers over the SDK's linked
// pair): the limits, reconnects and error mapping do not depend on a process being there.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Gateway } from '../../../src/core/gateway/gateway';
import type { GatewayError } from '../../../src/core/gateway/gatewayErrors';
import type { TransportContext } from '../../../src/core/gateway/upstreamTransport';
import { testGatewayOptions, textOf, waitFor } from './helpers';
import { everything, inMemoryConfig, inMemoryUpstreams } from './inMemoryUpstream';

describe('upstreams over an injected transport', () => {
  const gateways: Gateway[] = [];
  const make = (transport: ReturnType<typeof inMemoryUpstreams>, backoff = { initialMs: 300, maxMs: 600, jitter: 0 }) => {
    const gateway = new Gateway(testGatewayOptions({ transport, backoff }));
    gateways.push(gateway);
    return gateway;
  };
  after(() => Promise.all(gateways.map((g) => g.dispose())));

  test('each attempt gets max_message_mb in bytes; an oversized message it reports drops the connection with the reason, and the upstream comes back', async () => {
    const contexts: TransportContext[] = [];
    const transport = inMemoryUpstreams({ big: (ctx) => (contexts.push(ctx), everything(ctx)) });
    const gateway = make(transport);
    await gateway.applyConfig([inMemoryConfig('big', 'b_', { max_message_mb: 2 })]);
    assert.equal(gateway.statuses()[0].state.kind, 'ready');
    assert.equal(contexts[0].maxMessageBytes, 2 * 1024 * 1024);
    contexts[0].onTooLarge!(3 * 1024 * 1024);
    const state = gateway.statuses()[0].state;
    assert.ok(state.kind === 'down' && state.code === 'gateway.upstream_down' && /more than 2 MB \(max_message_mb = 2\)/.test(state.error), JSON.stringify(state));
    assert.ok(state.kind === 'down' && state.nextRetryAt !== undefined, 'a retry is scheduled');
    await assert.rejects(gateway.callTool('b_echo', { message: 'x' }), (error: GatewayError) => error.code === 'gateway.upstream_down' && /max_message_mb/.test(error.message));
    await waitFor(() => gateway.statuses()[0].state.kind === 'ready', 10_000, 'back');
    assert.equal(transport.links.get('big')!.length, 2, 'a second connection');
    assert.match(textOf(await gateway.callTool('b_echo', { message: 'back' })), /back/);
  });

  test('a connection dropped by the server: calls fail at once with upstream_down while down, then its tools come back', async () => {
    const transport = inMemoryUpstreams({ drops: everything });
    const gateway = make(transport, { initialMs: 700, maxMs: 1000, jitter: 0 });
    await gateway.applyConfig([inMemoryConfig('drops', 'd_')]);
    await transport.links.get('drops')![0].drop();
    const state = gateway.statuses()[0].state;
    assert.ok(state.kind === 'down' && state.nextRetryAt !== undefined, JSON.stringify(state));
    await assert.rejects(gateway.callTool('d_echo', { message: 'x' }), (error: GatewayError) => error.code === 'gateway.upstream_down' && /drops/.test(error.message) && /next retry in/.test(error.message));
    assert.ok(!gateway.tools().some((t) => t.upstream === 'drops'), 'not served while down');
    await waitFor(() => gateway.statuses()[0].state.kind === 'ready', 10_000, 'back');
    assert.match(textOf(await gateway.callTool('d_echo', { message: 'back' })), /back/);
    // An exit handler on a gateway whose connections are not processes has nothing to signal, and does not throw.
    gateway.killNow();
  });
});
