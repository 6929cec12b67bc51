// The two real ACP agents from npm (codex-acp, claude-agent-acp) driven through Hearth's own ACP
// client (AcpAgents, as the chat and `hearth ask --agent` use it), their model calls going to a local
// scripted endpoint speaking the provider's wire format. What each check looks at is the endpoint's
// request: what the agent really did with what Hearth sent. The e2e twin is test/e2e/acpAgents.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startMockLlm, type MockLlm } from '../../llm/mockLlm';
import { collect, createAgents, ScriptedHost, tempWorkspace, textOf, waitFor } from './helpers';
import { installRealAgent, REAL_AGENT_CHOICES, realAgentLaunch, type RealAgentName } from './fixtures/realAgents';

const wireSince = (server: MockLlm, from: number) => server.wire.slice(from).map((w) => JSON.stringify(w.body));

for (const name of ['codex', 'claude'] as RealAgentName[]) {
  const skip = installRealAgent(name);
  const expect = REAL_AGENT_CHOICES[name];
  describe(`a real external agent through Hearth's ACP client: ${name}`, { skip }, () => {
    let server: MockLlm;
    let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
    before(async () => {
      workspace = await tempWorkspace();
      server = await startMockLlm();
      server.mock.on({}, { content: 'Hello from the local model.' });
    });
    after(async () => {
      await server.stop();
      await workspace.cleanup();
    });

    test('resumed after its process ended, the session keeps its context; a picked mode and model and a / command reach the agent', { timeout: 240_000 }, async () => {
      const launch = realAgentLaunch(name, server.url, join(workspace.dir, '.home'));
      const { agents, log } = createAgents({ spawn: true, profiles: { real: launch }, limits: { startTimeoutMs: 120_000, streamingIdleMs: 120_000 } });
      try {
        const first = await agents.start('real', { host: new ScriptedHost(), cwd: workspace.dir });
        assert.match(textOf(await collect(first.prompt('remember the word PLUM-7'))), /Hello from the local model\./);
        const sessionId = first.opening!.sessionId;
        await first.dispose(); // the window reload: the agent's process ends, its session stays on disk

        const second = await agents.start('real', { host: new ScriptedHost(), cwd: workspace.dir, resume: sessionId });
        assert.deepEqual(second.opening, { sessionId, how: 'resumed' });
        let from = server.wire.length;
        await collect(second.prompt('which word did I ask you to remember?'));
        const resumed = wireSince(server, from);
        assert.ok(resumed.length > 0 && resumed.every((body) => body.includes('remember the word PLUM-7')), 'the endpoint receives the earlier turn');

        const controls = second.controls!;
        const mode = controls.current().options.find((o) => o.category === 'mode')!;
        const model = controls.current().options.find((o) => o.category === 'model')!;
        await controls.setOption(mode.id, expect.mode);
        await controls.setOption(model.id, expect.model);
        // The pickers move only on the agent's own report of its state.
        assert.equal(controls.current().options.find((o) => o.id === mode.id)!.value, expect.mode);
        assert.equal(controls.current().options.find((o) => o.id === model.id)!.value, expect.model);
        from = server.wire.length;
        await collect(second.prompt('go on'));
        const after = wireSince(server, from);
        assert.ok(after.some((body) => expect.modeSeen.test(body)), `the endpoint sees mode ${expect.mode}`);
        assert.ok(after.some((body) => expect.modelSeen.test(body)), `the endpoint sees model ${expect.model}`);

        // The agent announces its commands when it likes (available_commands_update after the session opened).
        assert.ok(await waitFor(() => controls.current().commands.some((c) => c.name === expect.command), 20_000), `the agent lists /${expect.command}`);
        from = server.wire.length;
        const events = await collect(second.prompt(`/${expect.command}`));
        assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn' });
        assert.ok(wireSince(server, from).some((body) => expect.commandSeen.test(body)), `/${expect.command} ran as the agent's command`);
        await second.dispose();
      } finally {
        await agents.dispose();
      }
      assert.ok(!log.lines.some((line) => line.startsWith('error')), log.lines.filter((line) => line.startsWith('error')).join('\n'));
    });
  });
}
