import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { collect, createAgents, fixtureProfile, ScriptedHost, tempWorkspace, textOf } from './helpers';

/** The scripted agent with these session capabilities (resume, load, list, close). */
const withSessions = (features: string) => ({ profiles: { scripted: fixtureProfile({ env: { HEARTH_FIXTURE_SESSIONS: features } }) } });

describe('ACP sessions that last (scripted agent in process; its saved sessions survive its restarts)', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());

  test('a new Hearth session for a saved agent session resumes it with session/resume: the agent keeps the earlier turns', async () => {
    const { agents, channels } = createAgents(withSessions('resume,close'));
    const first = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    await collect(first.prompt('remember the plum tree'));
    const sessionId = first.opening!.sessionId;
    assert.equal(first.opening!.how, 'new');
    await first.dispose(); // a window reload: the process ends, the agent's session stays
    const second = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir, resume: sessionId });
    try {
      assert.deepEqual(second.opening, { sessionId, how: 'resumed' });
      assert.equal(channels.length, 2, 'a second agent process');
      assert.equal(textOf(await collect(second.prompt('remember'))), 'remembered:["remember the plum tree","remember"]');
    } finally {
      await second.dispose();
    }
  });

  test('an agent that offers only session/load replays the history, which the session hands to the surface', async () => {
    const { agents } = createAgents(withSessions('load'));
    const first = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    await collect(first.prompt('remember apples and pears'));
    const sessionId = first.opening!.sessionId;
    await first.dispose();
    const second = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir, resume: sessionId });
    try {
      assert.equal(second.opening!.how, 'loaded');
      assert.deepEqual(second.opening!.replayed, [
        { role: 'user', text: 'remember apples and pears' },
        { role: 'assistant', text: 'remembered:["remember apples and pears"]' },
      ]);
      // The replay was history, not a turn: the next turn shows only its own answer.
      assert.equal(textOf(await collect(second.prompt('remember'))), 'remembered:["remember apples and pears","remember"]');
    } finally {
      await second.dispose();
    }
  });

  test('an agent that can neither resume nor load: a new session, and the reason why', async () => {
    const { agents } = createAgents(withSessions(''));
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir, resume: 'gone-123' });
    try {
      assert.equal(session.opening!.how, 'new');
      assert.notEqual(session.opening!.sessionId, 'gone-123');
      assert.match(session.opening!.reason!, /offers neither session\/resume nor session\/load/);
    } finally {
      await session.dispose();
    }
  });

  test('a session the agent no longer has (resume refused): a new one, saying what the agent answered', async () => {
    const { agents } = createAgents(withSessions('resume,load'));
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir, resume: 'no-such-session' });
    try {
      assert.equal(session.opening!.how, 'new');
      assert.match(session.opening!.reason!, /session\/load failed|session\/resume failed/);
    } finally {
      await session.dispose();
    }
  });

  test('after the agent process dies, the next turn resumes the same agent session (the agent still knows the turns)', async () => {
    const { agents, channels } = createAgents(withSessions('resume'));
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      await collect(session.prompt('remember the first thing'));
      const sessionId = session.opening!.sessionId;
      channels[0]!.killNow();
      assert.equal(textOf(await collect(session.prompt('remember'))), 'remembered:["remember the first thing","remember"]');
      assert.equal(channels.length, 2);
      assert.deepEqual(session.opening, { sessionId, how: 'resumed' });
    } finally {
      await session.dispose();
    }
  });

  test('session/list pages through the agent\'s sessions in the workspace with their titles; end() closes with session/close', async () => {
    const { agents } = createAgents(withSessions('resume,list,close'));
    const ids: string[] = [];
    for (const word of ['alpha', 'beta', 'gamma']) {
      const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
      await collect(session.prompt(`echo ${word}`));
      ids.push(session.opening!.sessionId);
      await session.dispose();
    }
    const listed = await agents.listSessions('scripted', workspace.dir);
    // Three sessions over two pages (the agent answers two a page).
    assert.deepEqual(listed.map((s) => s.sessionId).sort(), [...ids].sort());
    assert.deepEqual(listed.map((s) => s.title).sort(), ['Title: echo alpha', 'Title: echo beta', 'Title: echo gamma']);
    // Ending a conversation closes its session: the agent lists it no more.
    const resumed = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir, resume: ids[0] });
    await resumed.end!();
    assert.deepEqual((await agents.listSessions('scripted', workspace.dir)).map((s) => s.sessionId).sort(), ids.slice(1).sort());
  });

  test('an agent without session/list says so (acp.unsupported)', async () => {
    const { agents } = createAgents(withSessions('resume'));
    await assert.rejects(agents.listSessions('scripted', workspace.dir), (error: { code?: string }) => error.code === 'acp.unsupported');
  });
});
