import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ToolCallTracker, updateToEvents } from '../../../../src/core/agents/acp/requests/updateEvents';

describe('session/update → AgentEvents', () => {
  test('content kinds: text, links and embedded resources as text; images give nothing', () => {
    const tracker = new ToolCallTracker();
    assert.deepEqual(updateToEvents({ sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: 'file:///k/a.md', name: 'a.md' } }, tracker), { events: [{ type: 'text', text: '[a.md](file:///k/a.md)' }] });
    assert.deepEqual(updateToEvents({ sessionUpdate: 'agent_thought_chunk', content: { type: 'resource', resource: { uri: 'file:///x', text: 'inner' } } }, tracker), { events: [{ type: 'thought', text: 'inner' }] });
    assert.deepEqual(updateToEvents({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }, tracker), { events: [] });
    assert.deepEqual(updateToEvents({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'replayed' } }, tracker), { events: [] });
  });

  test('tool call updates keep the last status, show diffs and raw output, and announce unknown calls', () => {
    const tracker = new ToolCallTracker();
    updateToEvents({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Edit a.md', kind: 'edit', status: 'in_progress' }, tracker);
    assert.deepEqual(updateToEvents({ sessionUpdate: 'tool_call_update', toolCallId: 'a', content: [{ type: 'diff', path: '/k/a.md', oldText: 'x', newText: 'y' }] }, tracker), { events: [{ type: 'tool_update', id: 'a', status: 'in_progress', result: 'edited /k/a.md' }] });
    assert.deepEqual(updateToEvents({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'failed', rawOutput: { error: 'nope' } }, tracker), { events: [{ type: 'tool_update', id: 'a', status: 'failed', result: '{"error":"nope"}', isError: true }] });
    const unknown = updateToEvents({ sessionUpdate: 'tool_call_update', toolCallId: 'b', title: 'Run', status: 'completed' }, tracker);
    assert.deepEqual(unknown, { events: [{ type: 'tool_call', id: 'b', name: 'other', title: 'Run', arguments: undefined, status: 'completed' }, { type: 'tool_update', id: 'b', status: 'completed' }] });
  });

  test('a call the user rejected shows as denied when the agent reports it failed', () => {
    const tracker = new ToolCallTracker();
    updateToEvents({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Delete', kind: 'delete' }, tracker);
    tracker.denied.add('c');
    assert.deepEqual(updateToEvents({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'failed' }, tracker), { events: [{ type: 'tool_update', id: 'c', status: 'denied', isError: true }] });
  });

  test('usage_update becomes a usage event with the context window; `used: null` (claude-agent-acp) keeps the size', () => {
    const tracker = new ToolCallTracker();
    assert.deepEqual(updateToEvents({ sessionUpdate: 'usage_update', used: 53_000, size: 200_000 }, tracker), { events: [{ type: 'usage', context: { used: 53_000, size: 200_000 } }] });
    assert.deepEqual(updateToEvents({ sessionUpdate: 'usage_update', used: null, size: 200_000 }, tracker), { events: [{ type: 'usage', context: { size: 200_000 } }] });
    assert.deepEqual(updateToEvents({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.0125, currency: 'USD' } }, tracker), { events: [{ type: 'usage', context: { used: 10, size: 100, cost: { amount: 0.0125, currency: 'USD' } } }] });
    // A cost that is not one is left out; the usage still shows.
    assert.deepEqual(updateToEvents({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: null }, tracker), { events: [{ type: 'usage', context: { used: 10, size: 100 } }] });
    for (const update of [{ sessionUpdate: 'usage_update' }, { sessionUpdate: 'usage_update', used: 5, size: null }, { sessionUpdate: 'usage_update', used: 'many', size: 100 }, { sessionUpdate: 'usage_update', used: 1, size: -1 }]) {
      assert.ok('invalid' in updateToEvents(update, tracker), JSON.stringify(update));
    }
  });

  test('invalid updates are reported, not thrown', () => {
    const tracker = new ToolCallTracker();
    for (const update of [null, {}, { sessionUpdate: 'plan' }, { sessionUpdate: 'plan', entries: [{ content: 'x', status: 'weird' }] }, { sessionUpdate: 'tool_call', title: 'x' }, { sessionUpdate: 'tool_call_update' }, { sessionUpdate: 'agent_message_chunk', content: 'text' }]) {
      assert.ok('invalid' in updateToEvents(update, tracker), JSON.stringify(update));
    }
  });
});
