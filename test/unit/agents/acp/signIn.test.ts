import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { SignInRequest } from '../../../../src/core/agents/agentControls';
import type { SecretStore } from '../../../../src/core/host';
import { Redactor } from '../../../../src/core/logging/redactor';
import { signInSecret } from '../../../../src/core/agents/acp/acpAgents';
import { collect, createAgents, fixtureProfile, ScriptedHost, tempWorkspace, textOf } from './helpers';

class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  async get(name: string) {
    return this.values.get(name);
  }
  async store(name: string, value: string) {
    this.values.set(name, value);
  }
}

describe('ACP sign-in (scripted agent that refuses session/new until signed in)', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());
  const env = () => ({ HEARTH_FIXTURE_AUTH: '1', HEARTH_FIXTURE_LOGIN_FILE: join(workspace.dir, 'logged-in') });

  test('without a host that can ask: acp.auth_required naming every method (the key method with its variable)', async () => {
    const { agents } = createAgents({ profiles: { scripted: fixtureProfile({ env: env() }) } });
    await assert.rejects(agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir }), (error: { code?: string; message: string; remedy?: string }) => {
      assert.equal(error.code, 'acp.auth_required');
      assert.match(error.message, /needs you to sign in: Authentication required \(no credentials found\)/);
      assert.match(error.remedy!, /API key \(set FIXTURE_API_KEY\); Log in with a browser; Terminal login \(run .*scriptedAgent\.mjs --login\)/);
      return true;
    });
  });

  test('a key method asks once: the key goes into the agent\'s environment and the secret store, never into logs; the next start needs no question', async () => {
    const secrets = new MemorySecrets();
    const redactor = new Redactor();
    const { agents, log } = createAgents({ profiles: { scripted: fixtureProfile({ env: env() }) }, secrets, redactor });
    const asked: SignInRequest[] = [];
    const host = Object.assign(new ScriptedHost(), { signIn: async (request: SignInRequest) => (asked.push(request), { methodId: 'api-key', key: 'good-key' }) });
    const session = await agents.start('scripted', { host, cwd: workspace.dir });
    assert.deepEqual(asked[0]!.methods.map((m) => [m.id, m.kind, m.variable]), [['api-key', 'key', 'FIXTURE_API_KEY'], ['browser', 'agent', undefined], ['login', 'terminal', undefined]]);
    assert.equal(textOf(await collect(session.prompt('whoami'))), 'signed-in:true key-set:true');
    await session.dispose();
    assert.deepEqual(JSON.parse(secrets.values.get(signInSecret('scripted'))!), { FIXTURE_API_KEY: 'good-key' });
    assert.equal(redactor.redact('the key good-key'), 'the key «redacted»');
    // A new start reads the kept key and signs in with it: nobody is asked (this host cannot be).
    const again = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    assert.equal(textOf(await collect(again.prompt('whoami'))), 'signed-in:true key-set:true');
    assert.equal(await again.logout!(), true);
    assert.equal(secrets.values.get(signInSecret('scripted')), '{}', 'logout forgets the kept key');
    await again.dispose();
    assert.ok(!log.lines.some((line) => line.includes('good-key')), 'the key is in no log line');
  });

  test('an agent method calls authenticate; declining leaves acp.auth_required', async () => {
    const { agents } = createAgents({ profiles: { scripted: fixtureProfile({ env: env() }) } });
    const session = await agents.start('scripted', { host: Object.assign(new ScriptedHost(), { signIn: async () => ({ methodId: 'browser' }) }), cwd: workspace.dir });
    assert.equal(textOf(await collect(session.prompt('whoami'))), 'signed-in:true key-set:false');
    await session.dispose();
    await assert.rejects(agents.start('scripted', { host: Object.assign(new ScriptedHost(), { signIn: async () => undefined }), cwd: workspace.dir }), (error: { code?: string }) => error.code === 'acp.auth_required');
  });

  test('a terminal method: the host runs the agent\'s own login command (its args and env), then the session opens', async () => {
    const { agents } = createAgents({ profiles: { scripted: fixtureProfile({ env: env() }) } });
    const signIn = async (request: SignInRequest) => {
      const login = request.methods.find((m) => m.kind === 'terminal')!;
      // What the editor does in a VS Code terminal, here without one.
      const run = spawnSync(login.command!.command, login.command!.args, { env: { ...process.env, ...env(), ...login.command!.env } });
      return run.status === 0 ? { methodId: login.id } : undefined;
    };
    const session = await agents.start('scripted', { host: Object.assign(new ScriptedHost(), { signIn }), cwd: workspace.dir });
    try {
      assert.ok(existsSync(env().HEARTH_FIXTURE_LOGIN_FILE));
      assert.equal(textOf(await collect(session.prompt('whoami'))), 'signed-in:true key-set:false');
      assert.equal(await session.logout!(), true);
      assert.ok(!existsSync(env().HEARTH_FIXTURE_LOGIN_FILE), 'logout reached the agent');
    } finally {
      await session.dispose();
    }
  });
});
