import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LLMock } from '@copilotkit/aimock';
import type { AcpSession } from '../../../../src/core/agents/acp/session/acpSession';
import { installRealAgent, realAgentLaunch } from './fixtures/realAgents';
import { collect, createAgents, isAlive, ScriptedHost, tempWorkspace, textOf, waitFor } from './helpers';

// The real Claude Code behind Zed's ACP adapter, offline: its Anthropic calls go to aimock.
const skip = installRealAgent('claude');

describe('a real external agent: claude-agent-acp (Claude Code) against a local Anthropic-format server', { skip }, () => {
  let mock: LLMock;
  let url: string;
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => {
    workspace = await tempWorkspace();
    mock = new LLMock({ host: '127.0.0.1', port: 0 } as ConstructorParameters<typeof LLMock>[0]);
    mock.on({}, { content: 'Hello from the local model.' });
    url = await mock.start();
  });
  after(async () => {
    await mock.stop();
    await workspace.cleanup();
  });

  test('one turn completes: streamed text, end_turn, and the process tree is gone after dispose', async () => {
    const launch = realAgentLaunch('claude', url, join(workspace.dir, 'home'));
    const { agents, log } = createAgents({ profiles: { claude: launch }, limits: { startTimeoutMs: 120_000, streamingIdleMs: 120_000 } });
    const session = (await agents.start('claude', { host: new ScriptedHost(), cwd: workspace.dir })) as AcpSession;
    const pid = session.pid!;
    try {
      const events = await collect(session.prompt('Say hello'));
      assert.equal(textOf(events), 'Hello from the local model.', JSON.stringify(events));
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn' });
      assert.ok(!events.some((event) => event.type === 'error'), JSON.stringify(events));
      assert.ok(mock.getRequests().some((request) => request.path.includes('/v1/messages')), 'the agent called the local server');
    } finally {
      await agents.dispose();
    }
    assert.ok(await waitFor(() => !isAlive(pid)), 'the adapter process is gone');
    assert.ok(!log.lines.some((line) => line.startsWith('error')), log.lines.filter((line) => line.startsWith('error')).join('\n'));
  });
});
