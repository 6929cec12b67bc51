import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UpstreamStatus } from '../../../src/core/gateway/gateway';
import { describeState, gatewayStatusPresentation } from '../../../src/vscode/gateway/gatewayStatus';

const status = (name: string, state: UpstreamStatus['state']): UpstreamStatus => ({ name, prefix: `${name}_`, transport: 'stdio', state, tools: [] });

test('status bar: hidden without upstreams, N/M ready, warning when one is down', () => {
  assert.equal(gatewayStatusPresentation([]), undefined);
  const allUp = gatewayStatusPresentation([status('a', { kind: 'ready', toolCount: 3 }), status('b', { kind: 'ready', toolCount: 1 })])!;
  assert.equal(allUp.text, '$(plug) 2/2');
  assert.equal(allUp.warning, false);
  const oneDown = gatewayStatusPresentation([
    status('a', { kind: 'ready', toolCount: 3 }),
    status('b', { kind: 'down', error: 'connection closed', code: 'gateway.upstream_down', nextRetryAt: Date.now() + 4000 }),
    status('c', { kind: 'down', error: 'command "x" was not found', code: 'gateway.upstream_spawn' }),
  ])!;
  assert.equal(oneDown.text, '$(warning) 1/3');
  assert.equal(oneDown.warning, true);
  assert.match(oneDown.tooltip, /b: down \(retry in [45] s\): connection closed/);
  assert.match(oneDown.tooltip, /c: down \(not retrying\)/);
  assert.equal(describeState(status('a', { kind: 'ready', toolCount: 1 })), 'ready, 1 tool');
});
