import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentEvent } from '../../../../src/core/agents/agentSession';
import type { AcpSession } from '../../../../src/core/agents/acp/session/acpSession';
import { collect, createAgents, fixtureProfile, isAlive, ScriptedHost, tempWorkspace, textOf, waitFor } from './helpers';

describe('ACP session with the scripted agent (in process; a subprocess where the process is the subject)', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());

  test('a turn streams thoughts, a plan, tool calls and text, then done', async () => {
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const events = await collect(session.prompt('echo hello there world'));
      const types = events.map((event) => event.type);
      assert.deepEqual(types.slice(0, 4), ['thought', 'plan', 'tool_call', 'tool_update']);
      assert.deepEqual(events[1], { type: 'plan', entries: [{ content: 'echo back', priority: 'high', status: 'in_progress' }] });
      assert.deepEqual(events[2], { type: 'tool_call', id: 't1', name: 'search', title: 'Look things up', arguments: { q: 'x' }, status: 'pending' });
      assert.deepEqual(events[3], { type: 'tool_update', id: 't1', status: 'completed', result: 'found it' });
      assert.equal(textOf(events), 'hello there world');
      assert.ok(events.filter((event) => event.type === 'text').length >= 3, 'streamed in chunks');
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn' });
      // A second turn on the same process.
      const second = await collect(session.prompt('echo again'));
      assert.equal(textOf(second), 'again');
      assert.equal(session.agent.kind, 'external');
    } finally {
      await session.dispose();
    }
  });

  test('initialize advertises fs read/write; session/new gets the workspace cwd and the gateway over stdio; {env:VAR} reaches the agent', async () => {
    const { agents } = createAgents({
      profiles: { scripted: fixtureProfile({ args: [fixtureProfile().args![0], '--flag'], env: { HEARTH_FIXTURE_VAR: '{env:HEARTH_TEST_SECRET_VALUE}' } }) },
      env: { ...process.env, HEARTH_TEST_SECRET_VALUE: 's3cret' },
      gateway: (cwd) => ({ stdio: { command: '/usr/bin/hearth-cli', args: ['gateway', '--workspace', cwd] }, http: { url: 'http://127.0.0.1:9/mcp', token: 'tok' } }),
    });
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const info = JSON.parse(textOf(await collect(session.prompt('info', [{ path: 'notes/a.md', text: 'attached text' }]))));
      assert.deepEqual(info.clientCapabilities.fs, { readTextFile: true, writeTextFile: true });
      assert.equal(info.cwd, workspace.dir);
      // The agent does not speak MCP over HTTP, so it gets the stdio command.
      assert.deepEqual(info.mcpServers, [{ name: 'hearth', command: '/usr/bin/hearth-cli', args: ['gateway', '--workspace', workspace.dir], env: [] }]);
      assert.equal(info.env, 's3cret');
      assert.deepEqual(info.args, ['--flag']);
      assert.match(info.prompt, /\[resource file:\/\/.*notes\/a\.md\] attached text/);
    } finally {
      await session.dispose();
    }
  });

  test('attachments point into the kiln when it is not the workspace root (kiln_path = "notes")', async () => {
    const { agents } = createAgents();
    const kilnRoot = `${workspace.dir}/notes`;
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir, kilnRoot });
    try {
      const info = JSON.parse(textOf(await collect(session.prompt('info', [{ path: 'garden/a.md', text: 'attached text' }, { path: '/elsewhere/b.md', text: 'absolute' }]))));
      assert.equal(info.cwd, workspace.dir);
      assert.ok(info.prompt.includes(`[resource file://${kilnRoot}/garden/a.md] attached text`), info.prompt);
      assert.ok(info.prompt.includes('[resource file:///elsewhere/b.md] absolute'), info.prompt);
    } finally {
      await session.dispose();
    }
  });

  test('an agent that speaks MCP over HTTP gets the loopback gateway with its bearer token; attachments as text when it takes no embedded context', async () => {
    const { agents } = createAgents({
      profiles: { scripted: fixtureProfile({ env: { HEARTH_FIXTURE_HTTP: '1', HEARTH_FIXTURE_NO_EMBED: '1' } }) },
      gateway: () => ({ stdio: { command: 'x', args: [] }, http: { url: 'http://127.0.0.1:9/mcp', token: 'tok' } }),
    });
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const info = JSON.parse(textOf(await collect(session.prompt('info', [{ path: 'notes/b.md', startLine: 3, endLine: 4, text: 'line three\nline four' }]))));
      assert.equal(info.prompt, 'info\nnotes/b.md (lines 3-4):\n```\nline three\nline four\n```');
      assert.deepEqual(info.mcpServers, [{ type: 'http', name: 'hearth', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'Authorization', value: 'Bearer tok' }] }]);
    } finally {
      await session.dispose();
    }
  });

  test('cancel: aborting the signal sends session/cancel and the turn ends cancelled; the session goes on', async () => {
    const { agents, channels } = createAgents();
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const controller = new AbortController();
      const events: AgentEvent[] = [];
      for await (const event of session.prompt('slow', [], controller.signal)) {
        events.push(event);
        if (events.length === 3) controller.abort();
      }
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled' });
      assert.ok(!events.some((event) => event.type === 'error'));
      assert.ok(channels.length === 1 && !channels[0].hasExited, 'the agent honoured the cancel and keeps running');
      assert.equal(textOf(await collect(session.prompt('echo next'))), 'next');
      assert.equal(channels.length, 1, 'on the same agent');
    } finally {
      await session.dispose();
    }
  });

  test('subprocess: a crash mid-turn is reported with the agent stderr, and the next prompt restarts the agent', async () => {
    const { agents } = createAgents({ spawn: true });
    const session = (await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir })) as AcpSession;
    try {
      const firstPid = session.pid;
      const events = await collect(session.prompt('crash'));
      assert.equal(textOf(events), 'about to crash');
      const error = events.find((event) => event.type === 'error');
      assert.ok(error && error.type === 'error');
      assert.equal(error.code, 'acp.agent_exited');
      assert.match(error.message, /simulated crash/);
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'error' });
      assert.equal(textOf(await collect(session.prompt('echo back again'))), 'back again');
      assert.notEqual(session.pid, firstPid);
    } finally {
      await session.dispose();
    }
  });

  test('malformed and schema-invalid messages are logged and survived', async () => {
    const { agents, log } = createAgents();
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const events = await collect(session.prompt('malformed'));
      assert.equal(textOf(events), 'still here');
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn' });
      assert.ok(!events.some((event) => event.type === 'tool_call'), 'the invalid tool call is not shown');
      const warnings = log.lines.filter((line) => line.startsWith('warn'));
      assert.ok(warnings.some((line) => /malformed message \(not JSON/.test(line)), warnings.join('\n'));
      assert.ok(warnings.some((line) => /not a JSON-RPC 2.0 message/.test(line)));
      assert.ok(warnings.some((line) => /invalid session\/update \(agent_message_chunk without content\)/.test(line)));
      assert.ok(warnings.some((line) => /invalid session\/update \(tool_call with unknown status/.test(line)));
      // claude-agent-acp's `usage_update` with `used: null` (which the SDK's own validation rejects) is shown, not dropped.
      assert.deepEqual(events.filter((event) => event.type === 'usage'), [{ type: 'usage', context: { size: 1000 } }]);
      assert.ok(!warnings.some((line) => /usage_update/.test(line)), warnings.join('\n'));
      assert.equal(textOf(await collect(session.prompt('echo fine'))), 'fine');
    } finally {
      await session.dispose();
    }
  });

  test('a message over max_message_size is refused with an error; the turn and the session go on', async () => {
    const { agents, log } = createAgents({ limits: { maxMessageBytes: 256 * 1024 } });
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const events = await collect(session.prompt(`huge ${4 * 1024 * 1024}`));
      const error = events.find((event) => event.type === 'error');
      assert.ok(error && error.type === 'error' && error.code === 'acp.message_too_large', JSON.stringify(error));
      assert.equal(textOf(events), 'after huge', 'nothing of the huge message is shown');
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn' });
      assert.ok(log.lines.some((line) => line.startsWith('error') && /limit/.test(line)));
      // Just under the limit passes.
      const fits = await collect(session.prompt(`huge ${128 * 1024}`));
      assert.ok(!fits.some((event) => event.type === 'error'));
      assert.ok(textOf(fits).length >= 128 * 1024);
    } finally {
      await session.dispose();
    }
  });

  test('streaming time-out: a silent turn is cancelled and reported; an agent that ignores the cancel is restarted', async () => {
    const { agents, channels } = createAgents({ limits: { streamingIdleMs: 800, cancelGraceMs: 300 } });
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const events = await collect(session.prompt('silent'));
      assert.equal(textOf(events), 'going quiet');
      const error = events.find((event) => event.type === 'error');
      assert.ok(error && error.type === 'error' && error.code === 'acp.streaming_timeout', JSON.stringify(events));
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled' });
      assert.ok(await waitFor(() => channels[0].hasExited), 'the stuck agent was stopped');
      // Updates keep a long turn alive: `slow` streams every 20 ms for well past the time-out.
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 2000);
      const slow = await collect(session.prompt('slow', [], controller.signal));
      assert.ok(!slow.some((event) => event.type === 'error'), 'no time-out while updates flow');
      assert.deepEqual(slow.at(-1), { type: 'done', stopReason: 'cancelled' });
      assert.equal(channels.length, 2, 'a fresh agent ran the second turn');
    } finally {
      await session.dispose();
    }
  });

  test('session time-out: an idle session stops its process; the next prompt starts it again', async () => {
    const { agents, log, channels } = createAgents({ limits: { sessionIdleMs: 300 } });
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      await collect(session.prompt('echo one'));
      assert.ok(await waitFor(() => channels[0].hasExited), 'the idle agent was stopped');
      assert.ok(log.lines.some((line) => /idle/.test(line)));
      assert.equal(textOf(await collect(session.prompt('echo two'))), 'two');
      assert.equal(channels.length, 2, 'started again');
    } finally {
      await session.dispose();
    }
  });

  test('subprocess: dispose ends the whole process tree (the agent and what it spawned)', async () => {
    const { agents } = createAgents({ spawn: true });
    const session = (await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir })) as AcpSession;
    const agentPid = session.pid!;
    const text = textOf(await collect(session.prompt('child')));
    const childPid = Number(/child:(\d+)/.exec(text)![1]);
    assert.ok(isAlive(childPid));
    await agents.dispose();
    assert.ok(await waitFor(() => !isAlive(agentPid) && !isAlive(childPid)), 'agent and grandchild are gone');
    const after = await collect(session.prompt('echo x'));
    assert.equal(after[0].type === 'error' && after[0].code, 'acp.disposed');
  });
});
