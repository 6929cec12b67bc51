import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentEvent, PermissionOutcome } from '../../../../src/core/agents/agentSession';
import { collect, createAgents, ScriptedHost, tempWorkspace, textOf } from './helpers';

/** The outcome the agent received, as it reported it back in its text. */
function agentSaw(events: AgentEvent[]): PermissionOutcome {
  const match = /outcome:(\{.*\})/.exec(textOf(events));
  assert.ok(match, textOf(events));
  return JSON.parse(match[1]);
}

describe('ACP session/request_permission with a real agent', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());

  test('the user sees the agent\'s own options; allow and reject reach the agent as chosen', async () => {
    const host = new ScriptedHost(() => ({ outcome: 'selected', optionId: 'yes' }));
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      const allowed = await collect(session.prompt('permission Remove the cache'));
      assert.deepEqual(agentSaw(allowed), { outcome: 'selected', optionId: 'yes' });
      assert.equal(host.asked.length, 1);
      const request = host.asked[0];
      assert.equal(request.title, 'Remove the cache');
      assert.equal(request.toolCallId, 'p1');
      assert.match(request.detail ?? '', /"target": "all"/);
      assert.deepEqual(request.options.map((option) => [option.optionId, option.kind]), [['yes', 'allow_once'], ['yes-always', 'allow_always'], ['no', 'reject_once'], ['no-always', 'reject_always']]);
      assert.deepEqual(allowed.filter((event) => event.type === 'tool_update').map((event) => event.type === 'tool_update' && event.status), ['completed']);

      host.answer = () => ({ outcome: 'selected', optionId: 'no' });
      const rejected = await collect(session.prompt('permission Remove the cache'));
      assert.deepEqual(agentSaw(rejected), { outcome: 'selected', optionId: 'no' });
      const statuses = rejected.filter((event) => event.type === 'tool_update').map((event) => event.type === 'tool_update' && event.status);
      assert.ok(statuses.length > 0 && statuses.every((status) => status === 'denied'), `a rejected call shows as denied, never completed: ${statuses}`);
    } finally {
      await session.dispose();
    }
  });

  test('an answer that is not one of the agent\'s options, or a failing prompt, is a reject (cancelled)', async () => {
    const host = new ScriptedHost(() => ({ outcome: 'selected', optionId: 'allow-everything' }));
    const { agents, log } = createAgents();
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      assert.deepEqual(agentSaw(await collect(session.prompt('permission'))), { outcome: 'cancelled' });
      // The session's sub-logger names the agent; the broker types no prefix of its own.
      assert.ok(log.lines.some((line) => /^warn \[acp:scripted\] the answer "allow-everything" is not one of the agent's options/.test(line)), log.lines.join('\n'));
      host.answer = () => {
        throw new Error('the prompt window was closed');
      };
      assert.deepEqual(agentSaw(await collect(session.prompt('permission'))), { outcome: 'cancelled' });
      host.answer = () => ({ outcome: 'cancelled' });
      assert.deepEqual(agentSaw(await collect(session.prompt('permission'))), { outcome: 'cancelled' });
    } finally {
      await session.dispose();
    }
  });

  test('a prompt closed when the turn ends is answered as a reject, even if the host answers "allow" late', async () => {
    let closedBySignal = false;
    const controller = new AbortController();
    const host = new ScriptedHost((_request, signal) => {
      setTimeout(() => controller.abort(), 10);
      return new Promise((resolve) => signal.addEventListener('abort', () => {
        closedBySignal = true;
        // A host that answers late with "allow" must not turn the closed prompt into an allow.
        resolve({ outcome: 'selected', optionId: 'yes' });
      }));
    });
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      const events = await collect(session.prompt('permission', [], controller.signal));
      assert.ok(closedBySignal, 'the host was told to close its prompt');
      assert.deepEqual(agentSaw(events), { outcome: 'cancelled' });
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled' });
    } finally {
      await session.dispose();
    }
  });

  test('aborting the turn while a prompt is open cancels the prompt', async () => {
    const controller = new AbortController();
    const host = new ScriptedHost((_request, signal) => {
      setTimeout(() => controller.abort(), 10);
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ outcome: 'cancelled' })));
    });
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      const events = await collect(session.prompt('permission', [], controller.signal));
      assert.deepEqual(agentSaw(events), { outcome: 'cancelled' });
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled' });
    } finally {
      await session.dispose();
    }
  });

  test('"always allow" and "always reject" are remembered for the session, per tool', async () => {
    const host = new ScriptedHost(() => ({ outcome: 'selected', optionId: 'yes-always' }));
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      assert.deepEqual(agentSaw(await collect(session.prompt('permission Tidy notes'))), { outcome: 'selected', optionId: 'yes-always' });
      host.answer = () => assert.fail('must not ask again');
      assert.deepEqual(agentSaw(await collect(session.prompt('permission Tidy notes'))), { outcome: 'selected', optionId: 'yes-always' });
      assert.equal(host.asked.length, 1);

      host.answer = () => ({ outcome: 'selected', optionId: 'no-always' });
      assert.deepEqual(agentSaw(await collect(session.prompt('permission Drop tables'))), { outcome: 'selected', optionId: 'no-always' });
      host.answer = () => assert.fail('must not ask again');
      assert.deepEqual(agentSaw(await collect(session.prompt('permission Drop tables'))), { outcome: 'selected', optionId: 'no-always' });
      assert.equal(host.asked.length, 2);
    } finally {
      await session.dispose();
    }
    // A new session starts with nothing remembered.
    const fresh = new ScriptedHost(() => ({ outcome: 'selected', optionId: 'no' }));
    const second = await agents.start('scripted', { host: fresh, cwd: workspace.dir });
    try {
      assert.deepEqual(agentSaw(await collect(second.prompt('permission Tidy notes'))), { outcome: 'selected', optionId: 'no' });
      assert.equal(fresh.asked.length, 1);
    } finally {
      await second.dispose();
    }
  });
});
