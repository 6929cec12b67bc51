import assert from 'node:assert/strict';
import { mkdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentEvent } from '../../../../src/core/agents/agentSession';
import { TERMINAL_LIMITS } from '../../../../src/core/agents/acp/requests/agentTerminals';
import { collect, createAgents, isAlive, ScriptedHost, tempWorkspace, textOf, waitFor } from './helpers';

const node = process.execPath;
const run = (spec: Record<string, unknown>) => `run ${JSON.stringify(spec)}`;
const allowOnce = () => new ScriptedHost(() => ({ outcome: 'selected', optionId: 'allow' }));

describe('the terminal capability (scripted agent in process; real commands as process groups)', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => {
    workspace = await tempWorkspace();
    await mkdir(join(workspace.dir, 'sub'));
    await symlink(tmpdir(), join(workspace.dir, 'out-link'));
  });
  after(() => workspace.cleanup());

  test('initialize declares terminal: true; a command runs after a prompt naming it exactly, in the workspace; its output streams as a terminal block', async () => {
    const { agents } = createAgents();
    const host = allowOnce();
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      assert.equal(JSON.parse(textOf(await collect(session.prompt('info')))).clientCapabilities.terminal, true);
      const events = await collect(session.prompt(run({ command: node, args: ['-e', 'console.log(process.cwd())'], cwd: join(workspace.dir, 'sub') })));
      assert.equal(textOf(events), `exit:0 truncated:false bytes:${join(workspace.dir, 'sub').length + 1} output:${join(workspace.dir, 'sub')}\n`);
      assert.equal(host.asked.length, 1);
      assert.equal(host.asked[0]!.title, `scripted wants to run: ${node} -e 'console.log(process.cwd())'`);
      assert.equal(host.asked[0]!.detail, 'in sub');
      const blocks = events.filter((e): e is Extract<AgentEvent, { type: 'terminal' }> => e.type === 'terminal');
      assert.equal(blocks[0]!.command, `${node} -e 'console.log(process.cwd())'`);
      assert.deepEqual(blocks.at(-1)!.exit, { code: 0, signal: null });
      assert.equal(blocks.at(-1)!.output, `${join(workspace.dir, 'sub')}\n`);
    } finally {
      await session.dispose();
    }
  });

  test('"for the session" allows that exact command again without asking; another command is asked; a rejection runs nothing', async () => {
    const { agents } = createAgents();
    const host = new ScriptedHost((request) => ({ outcome: 'selected', optionId: request.title.includes('first') ? 'allow_session' : 'reject' }));
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      assert.match(textOf(await collect(session.prompt(run({ command: node, args: ['-e', 'console.log("first")'], repeat: 2 })))), /^exit:0 .*output:first/);
      assert.equal(host.asked.length, 1, 'asked once for two runs');
      assert.match(textOf(await collect(session.prompt(run({ command: node, args: ['-e', 'console.log("second")'] })))), /^error:-32602:Terminal refused: the user did not allow running/);
      assert.equal(host.asked.length, 2);
    } finally {
      await session.dispose();
    }
  });

  test('outputByteLimit keeps the newest bytes, cut at a character boundary', async () => {
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host: allowOnce(), cwd: workspace.dir });
    try {
      const reply = textOf(await collect(session.prompt(run({ command: node, args: ['-e', 'process.stdout.write("start" + "é".repeat(1000) + "end")'], outputByteLimit: 101 }))));
      const [, bytes, output] = /^exit:0 truncated:true bytes:(\d+) output:(.*)$/s.exec(reply)!;
      assert.ok(Number(bytes) <= 101 && Number(bytes) >= 99, bytes);
      assert.ok(output!.endsWith('end') && !output!.includes('start') && !output!.includes('\ufffd'), output);
    } finally {
      await session.dispose();
    }
  });

  test('hostile: a cwd outside the workspace, through .., through a link, relative; a 1 MB command line; an untrusted folder — refused before anyone is asked', async () => {
    let trusted = true;
    const { agents } = createAgents({ trusted: () => trusted });
    const host = allowOnce();
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    try {
      const refusal = async (spec: Record<string, unknown>) => textOf(await collect(session.prompt(run({ command: node, args: ['-e', '1'], ...spec }))));
      assert.match(await refusal({ cwd: tmpdir() }), /outside the workspace/);
      assert.match(await refusal({ cwd: `${workspace.dir}/sub/../..` }), /outside the workspace/);
      assert.match(await refusal({ cwd: join(workspace.dir, 'out-link') }), /outside the workspace/);
      assert.match(await refusal({ cwd: 'sub' }), /not an absolute path/);
      assert.match(await refusal({ args: ['-e', 'x'.repeat(1024 * 1024)] }), new RegExp(`commands over ${TERMINAL_LIMITS.commandBytes} bytes are refused`));
      trusted = false;
      assert.match(await refusal({}), /this folder is not trusted; nothing was run/);
      assert.equal(host.asked.length, 0);
    } finally {
      await session.dispose();
    }
  });

  test('hostile: a command that never exits — terminal/kill ends it; cancelling the turn kills its process tree; so does ending the session', async () => {
    const { agents } = createAgents();
    const session = await agents.start('scripted', { host: allowOnce(), cwd: workspace.dir });
    try {
      assert.match(textOf(await collect(session.prompt(run({ command: node, args: ['-e', 'setInterval(() => {}, 1000)'], killAfterMs: 100 })))), /^exit:SIGKILL /);
      const controller = new AbortController();
      const turn = collect(session.prompt(run({ command: node, args: ['-e', 'require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); setInterval(() => {}, 1000)'] }), [], controller.signal));
      const terminals = (session as unknown as { terminals: { pids: number[] } }).terminals;
      assert.ok(await waitFor(() => terminals.pids.length === 1));
      const [pid] = terminals.pids;
      controller.abort();
      const events = await turn;
      assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled' });
      assert.ok(await waitFor(() => !isAlive(pid!)), 'the command was killed');
      // Its own child too: the whole group went (no process of that group is left).
      assert.ok(await waitFor(() => { try { process.kill(-pid!, 0); return false; } catch { return true; } }), 'the process group is gone');
    } finally {
      await session.dispose();
    }
  });
});
