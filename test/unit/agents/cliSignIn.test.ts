// `hearth ask --agent NAME` when the agent needs a sign-in: the terminal's picker of its authMethods
// (terminalSignIn) in front of a real ACP agent (the scripted SDK agent refusing session/new until
// signed in). An agent method signs in through `authenticate`; a terminal method runs the agent's
// own login command here; a key method names the variable to set; without a terminal nothing is asked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { terminalSignIn } from '../../../src/cli/terminalSignIn';
import { collect, createAgents, fixtureProfile, tempWorkspace, textOf } from './acp/helpers';

function terminal(answer: string | undefined, tty = true) {
  const stdin = Object.assign(new PassThrough(), { isTTY: tty });
  if (answer !== undefined) stdin.write(`${answer}\n`);
  let said = '';
  const stderr = new PassThrough();
  stderr.on('data', (chunk) => (said += String(chunk)));
  return { stdin, stderr, said: () => said };
}

describe('hearth ask --agent: signing in from the terminal', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());
  const loginFile = () => join(workspace.dir, 'logged-in');
  const start = (io: ReturnType<typeof terminal>) => {
    rmSync(loginFile(), { force: true }); // signed out: the agent refuses session/new until a sign-in
    const { agents } = createAgents({ profiles: { scripted: fixtureProfile({ env: { HEARTH_FIXTURE_AUTH: '1', HEARTH_FIXTURE_LOGIN_FILE: loginFile() } }) } });
    const runLogin = async (command: { command: string; args: string[] }, env: NodeJS.ProcessEnv) => spawnSync(command.command, command.args, { env, stdio: 'ignore' }).status;
    const host = { requestPermission: async () => ({ outcome: 'cancelled' as const }), signIn: terminalSignIn({ stdin: io.stdin, stderr: io.stderr, env: { ...process.env, HEARTH_FIXTURE_LOGIN_FILE: loginFile() }, runLogin }) };
    return { agents, session: agents.start('scripted', { host, cwd: workspace.dir }) };
  };

  test('the methods are listed with what each needs; picking the agent method signs in and the turn runs', async () => {
    const io = terminal('2');
    const { agents, session } = start(io);
    try {
      assert.equal(textOf(await collect((await session).prompt('whoami'))), 'signed-in:true key-set:false');
      assert.match(io.said(), /scripted needs you to sign in/);
      assert.match(io.said(), /1\) API key \(set FIXTURE_API_KEY\)/);
      assert.match(io.said(), /2\) Log in with a browser/);
      assert.match(io.said(), /3\) Terminal login \(runs .*--login\)/);
    } finally {
      await agents.dispose();
    }
  });

  test('a terminal method runs the agent\'s login command, then the session opens', async () => {
    const io = terminal('3');
    const { agents, session } = start(io);
    try {
      await session;
      assert.ok(existsSync(loginFile()), 'the login command ran');
    } finally {
      await agents.dispose();
    }
  });

  test('a key method names the variable to set, and the start fails with the methods', async () => {
    const io = terminal('1');
    const { agents, session } = start(io);
    await assert.rejects(session, (error: { code?: string }) => error.code === 'acp.auth_required');
    assert.match(io.said(), /set FIXTURE_API_KEY in the environment/);
    await agents.dispose();
  });

  test('without a terminal on stdin nothing is asked', async () => {
    const io = terminal(undefined, false);
    const { agents, session } = start(io);
    await assert.rejects(session, (error: { code?: string; remedy?: string }) => error.code === 'acp.auth_required' && /FIXTURE_API_KEY/.test(error.remedy ?? ''));
    assert.equal(io.said(), '');
    await agents.dispose();
  });
});
