import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentEvent } from '../../../../src/core/agents/agentSession';
import type { AcpError } from '../../../../src/core/agents/acp/acpErrors';
import { collect, createAgents, FIXTURE, isAlive, ScriptedHost, tempWorkspace, textOf, waitFor } from './helpers';
import { inProcessAgent } from './inProcessAgent';

describe('ACP session lifecycle', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());

  test('an error answer to session/prompt is reported with its details; the session goes on', async () => {
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const events = await collect(session.prompt('fail'));
      const error = events.find((event) => event.type === 'error');
      assert.ok(error && error.type === 'error' && error.code === 'acp.prompt_failed', JSON.stringify(events));
      assert.match(error.message, /the model is overloaded/);
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'error' });
      assert.equal(textOf(await collect(session.prompt('echo ok'))), 'ok');
    } finally {
      await session.dispose();
    }
  });

  test('one turn at a time: a second prompt while one runs is refused; a reader that stops early cancels its turn', async () => {
    const { agents, channels } = createAgents();
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const first = session.prompt('slow')[Symbol.asyncIterator]();
      assert.equal((await first.next()).value?.type, 'text');
      const busy = await collect(session.prompt('echo no'));
      assert.equal(busy[0].type === 'error' && busy[0].code, 'acp.busy');
      // Stop reading: the turn is cancelled, and the next one runs on the same agent.
      await first.return?.();
      const next: AgentEvent[] = await collect(session.prompt('echo after'));
      assert.equal(textOf(next), 'after', JSON.stringify(next));
      assert.ok(channels.length === 1 && !channels[0].hasExited, 'not restarted');
    } finally {
      await session.dispose();
    }
  });

  test('an injected agent that ends during start-up, or never answers, fails with the same coded errors as a process', async () => {
    const dies = inProcessAgent((peer) => {
      peer.writeStderr('login required\n');
      peer.exit(4);
    });
    const first = createAgents({ transport: dies });
    await assert.rejects(first.agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir }), (error: AcpError) => error.code === 'acp.agent_exited' && /code 4.*login required/.test(error.message));
    // Reads its input and says nothing: the start-up time-out ends it.
    const mute = inProcessAgent(() => {});
    const second = createAgents({ transport: mute, limits: { startTimeoutMs: 300 } });
    await assert.rejects(second.agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir }), (error: AcpError) => error.code === 'acp.handshake_failed' && /within/.test(error.message));
    assert.ok(mute.channels[0].hasExited, 'the silent agent was ended');
  });

  test('subprocess: a host that dies abruptly (SIGKILL) takes the agent and its children with it', async () => {
    const host = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'hostThatDies.ts'), FIXTURE, workspace.dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const hostExited = new Promise((resolve) => host.once('exit', resolve));
    let pids: { agent: number; child: number } | undefined;
    try {
      pids = await new Promise<{ agent: number; child: number }>((resolve, reject) => {
        // A guard only, so a stuck host fails the test instead of hanging it.
        const timer = setTimeout(() => reject(new Error('the host did not report its agent within 60 s')), 60_000);
        let out = '';
        host.stdout.on('data', (chunk) => {
          out += chunk;
          if (out.includes('\n')) {
            clearTimeout(timer);
            resolve(JSON.parse(out));
          }
        });
        host.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`host exited early (${code})`));
        });
      });
      const { agent, child } = pids;
      assert.ok(isAlive(agent) && isAlive(child));
      host.kill('SIGKILL');
      assert.ok(await waitFor(() => !isAlive(agent) && !isAlive(child)), 'no agent process is left behind');
    } finally {
      // Should an assertion fail, a live host (or agent) would keep this file's process, and the run, from ending.
      host.kill('SIGKILL');
      await hostExited;
      for (const pid of pids ? [pids.agent, pids.child] : []) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone, as it should be
        }
      }
    }
  });

  test('external agents disposed while a session is starting (the editor closing): the start is refused and no agent is left running', async () => {
    const { agents, channels } = createAgents();
    // The agent is probed and the ACP code loaded before the session exists: dispose lands in that gap.
    const starting = agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    await agents.dispose();
    await assert.rejects(starting, (error: AcpError) => error.code === 'acp.disposed');
    assert.ok(channels.every((channel) => channel.hasExited), `${channels.filter((channel) => !channel.hasExited).length} agent(s) still running`);
    await assert.rejects(agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir }), (error: AcpError) => error.code === 'acp.disposed');
  });
});

describe('the gateway offered to external agents', () => {
  test('an agent reaches the kiln tools through the `hearth gateway` command offered in session/new', async () => {
    const workspace = await tempWorkspace();
    try {
      await writeFile(join(workspace.dir, 'hello.md'), '# Hello\nfrom the kiln\n');
      const { agents } = createAgents({
        env: { ...process.env, HEARTH_KILN_PATH: workspace.dir },
        // The CLI from source, as `hearth gateway` (dist/cli.js in a build).
        gateway: (cwd) => ({ stdio: { command: process.execPath, args: ['--import', resolve('node_modules/tsx/dist/loader.mjs'), resolve('src/cli/main.ts'), 'gateway', '--workspace', cwd] } }),
      });
      const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
      try {
        const reply = JSON.parse(textOf(await collect(session.prompt('mcp hello.md'))));
        assert.ok(reply.tools.includes('read_note') && reply.tools.includes('semantic_search'), reply.tools.join());
        assert.match(reply.read, /from the kiln/);
      } finally {
        await session.dispose();
      }
    } finally {
      await workspace.cleanup();
    }
  });
});
