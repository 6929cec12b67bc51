// The streaming time-out measures the agent's silence, not the user's: while a permission prompt
// or an overwrite confirmation is open it is paused, and it runs again once the user has answered.
// Short injected time-outs against the scripted agent over stdio; the host answers well after one.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PermissionOutcome } from '../../../../src/core/agents/agentSession';
import { collect, createAgents, ScriptedHost, tempWorkspace, textOf } from './helpers';

const STREAMING_IDLE_MS = 300;
/** The user answers after several streaming time-outs would have passed. */
const ANSWER_AFTER_MS = STREAMING_IDLE_MS * 4;

function slowAnswer(outcome: PermissionOutcome): ScriptedHost {
  return new ScriptedHost((_request, signal) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve(outcome), ANSWER_AFTER_MS);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve({ outcome: 'cancelled' });
    });
  }));
}

describe('ACP streaming time-out while Hearth waits for the user', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());

  test('a permission prompt answered after the time-out still reaches the agent; the turn is not cancelled', async () => {
    const host = slowAnswer({ outcome: 'selected', optionId: 'yes' });
    const { agents } = createAgents({ limits: { streamingIdleMs: STREAMING_IDLE_MS } });
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      const events = await collect(session.prompt('permission Slow decision'));
      assert.equal(host.asked.length, 1);
      assert.ok(!events.some((event) => event.type === 'error'), JSON.stringify(events));
      assert.match(textOf(events), /outcome:\{"outcome":"selected","optionId":"yes"\}/);
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn' });
    } finally {
      await session.dispose();
    }
  });

  test('an overwrite confirmation answered after the time-out lets the write go ahead', async () => {
    await writeFile(join(workspace.dir, 'existing.md'), 'old text');
    const host = slowAnswer({ outcome: 'selected', optionId: 'allow' });
    const { agents } = createAgents({ limits: { streamingIdleMs: STREAMING_IDLE_MS } });
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      const events = await collect(session.prompt(`write ${join(workspace.dir, 'existing.md')} new text`));
      assert.equal(host.asked.length, 1);
      assert.ok(!events.some((event) => event.type === 'error'), JSON.stringify(events));
      assert.equal(textOf(events), 'wrote');
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn' });
    } finally {
      await session.dispose();
    }
  });

  test('after the answer the time-out runs again: an agent that then goes silent is cancelled', async () => {
    const host = slowAnswer({ outcome: 'selected', optionId: 'no' });
    const { agents } = createAgents({ limits: { streamingIdleMs: STREAMING_IDLE_MS, cancelGraceMs: 200 } });
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      const events = await collect(session.prompt('ask-then-silent'));
      assert.match(textOf(events), /outcome:\{"outcome":"selected","optionId":"no"\}/, 'the answer was not cut off by the time-out');
      assert.ok(events.some((event) => event.type === 'error' && event.code === 'acp.streaming_timeout'), JSON.stringify(events));
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled' });
    } finally {
      await session.dispose();
    }
  });
});
