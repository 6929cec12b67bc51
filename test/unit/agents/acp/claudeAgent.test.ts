import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LLMock } from '@copilotkit/aimock';
import type { AcpSession } from '../../../../src/core/agents/acp/session/acpSession';
import { collect, createAgents, isAlive, ScriptedHost, tempWorkspace, textOf, waitFor } from './helpers';

// The real Claude Code behind Zed's ACP adapter, offline: its Anthropic calls go to aimock. Kept
// out of the project's dependencies (85 MB); installed once into node_modules/.cache.
const VERSION = '0.23.1';
const CACHE = resolve(__dirname, '../../../../node_modules/.cache/hearth-claude-agent-acp');
const PACKAGE = join(CACHE, 'node_modules', '@zed-industries', 'claude-agent-acp');
const ADAPTER = join(PACKAGE, 'dist', 'index.js');
const CLAUDE_CLI = join(CACHE, 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'cli.js');

function install(): string | undefined {
  if (existsSync(ADAPTER) && existsSync(CLAUDE_CLI)) return undefined;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(join(CACHE, 'package.json'), '{"name":"hearth-claude-agent-acp","private":true}\n');
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', CACHE, `@zed-industries/claude-agent-acp@${VERSION}`], { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0 || !existsSync(ADAPTER)) return `could not install @zed-industries/claude-agent-acp: ${(result.stderr || result.error?.message || '').slice(-300)}`;
  return undefined;
}

const skip = install();

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
    const home = join(workspace.dir, 'home');
    mkdirSync(home);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'sk-test-offline',
      CLAUDE_CODE_EXECUTABLE: CLAUDE_CLI,
      // Claude Code refuses its permission-bypass flag as root unless it is told it is sandboxed.
      IS_SANDBOX: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
    const { agents, log } = createAgents({ profiles: { claude: { command: process.execPath, args: [ADAPTER] } }, env, limits: { startTimeoutMs: 120_000, streamingIdleMs: 120_000 } });
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
