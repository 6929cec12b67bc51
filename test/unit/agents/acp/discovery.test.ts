import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AcpError } from '../../../../src/core/agents/acp/acpErrors';
import { defineAgents } from '../../../../src/core/agents/acp/profiles/agentProfiles';
import { KNOWN_AGENTS } from '../../../../src/core/agents/acp/profiles/knownAgents';
import { limitsFromConfig } from '../../../../src/core/agents/acp/acpLimits';
import { AcpSchema } from '../../../../src/core/config/schema';
import { collect, createAgents, fixtureProfile, ScriptedHost, tempWorkspace, textOf } from './helpers';

describe('ACP profiles', () => {
  test('extends takes command, args and env, then overrides field by field (env key by key)', () => {
    const agents = defineAgents(
      {
        base: { command: '/opt/agent', args: ['--acp'], env: { A: '1', B: '2' } },
        child: { extends: 'base', env: { B: 'two', C: '3' } },
        grandchild: { extends: 'child', args: ['--other'] },
        gemini: { env: { GEMINI_API_KEY: '{env:MY_GEMINI}' } },
        mine: { extends: 'goose', command: '/usr/local/bin/goose' },
      },
      false,
    );
    const byName = Object.fromEntries(agents.map((agent) => [agent.name, agent]));
    assert.deepEqual(byName.child.launch, { command: '/opt/agent', args: ['--acp'], env: { A: '1', B: 'two', C: '3' } });
    assert.deepEqual(byName.grandchild.launch, { command: '/opt/agent', args: ['--other'], env: { A: '1', B: 'two', C: '3' } });
    // A profile named like a known agent builds on it without saying so.
    assert.deepEqual(byName.gemini.launch, { command: 'gemini', args: ['--experimental-acp'], env: { GEMINI_API_KEY: '{env:MY_GEMINI}' } });
    assert.deepEqual(byName.mine.launch, { command: '/usr/local/bin/goose', args: ['acp'], env: {} });
    assert.deepEqual(agents.map((agent) => agent.origin), ['profile', 'profile', 'profile', 'profile', 'profile'], 'discovery off: only profiles');
  });

  test('cycles, unknown extends and a missing command are reported per profile, not fatal', () => {
    const agents = defineAgents({ a: { extends: 'b' }, b: { extends: 'a' }, c: { extends: 'nope' }, d: { args: ['x'] }, ok: { command: 'x' } }, false);
    const byName = Object.fromEntries(agents.map((agent) => [agent.name, agent]));
    assert.match(byName.a.problem!, /cycle/);
    assert.match(byName.b.problem!, /cycle/);
    assert.match(byName.c.problem!, /"nope", which is neither a profile nor a known agent/);
    assert.match(byName.d.problem!, /no "command"/);
    assert.ok(byName.ok.launch);
  });

  test('discovery on lists every known agent (DESIGN.md §10), profiles replacing their namesakes', () => {
    const agents = defineAgents({ goose: { args: ['acp', '--debug'] } }, true);
    assert.deepEqual(agents.map((agent) => agent.name).sort(), KNOWN_AGENTS.map((agent) => agent.name).sort());
    const goose = agents.find((agent) => agent.name === 'goose')!;
    assert.equal(goose.origin, 'profile');
    assert.deepEqual(goose.launch?.args, ['acp', '--debug']);
    const commands = KNOWN_AGENTS.map((agent) => [agent.command, ...agent.args].join(' '));
    assert.deepEqual(KNOWN_AGENTS.find((agent) => agent.name === 'claude-code')?.fallbackCommands, ['claude-code-acp']);
    for (const expected of ['claude-agent-acp', 'gemini --experimental-acp', 'codex-acp', 'opencode acp', 'goose acp', 'qwen --experimental-acp']) assert.ok(commands.includes(expected), expected);
  });

  test('limits come from [acp] in minutes and MB', () => {
    const limits = limitsFromConfig(AcpSchema.parse({}));
    assert.equal(limits.sessionIdleMs, 30 * 60_000);
    assert.equal(limits.streamingIdleMs, 15 * 60_000);
    assert.equal(limits.maxMessageBytes, 25 * 1024 * 1024);
  });
});

describe('ACP discovery on PATH and starting agents', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  let bin: string;
  before(async () => {
    workspace = await tempWorkspace();
    bin = join(workspace.dir, 'bin');
    await mkdir(bin);
    // Stand-ins for installed agents: found on PATH, never run by discovery.
    for (const name of ['gemini', 'goose', 'claude-code-acp']) {
      await writeFile(join(bin, name), '#!/bin/sh\necho started >> "$(dirname "$0")/ran"\n');
      await chmod(join(bin, name), 0o755);
    }
    await writeFile(join(bin, 'codex-acp'), 'not executable');
  });
  after(() => workspace.cleanup());

  test('known agents on PATH are available, the others listed with why; nothing is started', async () => {
    const { agents } = createAgents({ acp: { enable_discovery: true }, profiles: { scripted: fixtureProfile(), broken: { extends: 'missing' }, elsewhere: { command: '/nonexistent/agent' } }, env: { ...process.env, PATH: bin } });
    const list = await agents.list();
    const byName = Object.fromEntries(list.map((agent) => [agent.name, agent]));
    assert.ok(list.every((agent) => agent.kind === 'external'));
    assert.equal(byName.gemini.available, true);
    assert.equal(byName.goose.available, true);
    assert.equal(byName.scripted.available, true);
    assert.equal(byName['claude-code'].available, true, 'found under its older name claude-code-acp');
    assert.equal(byName.qwen.available, false);
    assert.match(byName.qwen.unavailableReason!, /"qwen" is not on PATH/);
    assert.match(byName.codex.unavailableReason!, /not executable/);
    assert.match(byName.broken.unavailableReason!, /neither a profile nor a known agent/);
    assert.match(byName.elsewhere.unavailableReason!, /does not exist/);
    assert.ok(!(await import('node:fs')).existsSync(join(bin, 'ran')), 'probing must not run the agents');
  });

  test('default_agent when available, else the first available agent', async () => {
    const env = { ...process.env, PATH: bin };
    assert.equal(await createAgents({ acp: { enable_discovery: true, default_agent: 'goose' }, env }).agents.defaultAgent(), 'goose');
    assert.equal(await createAgents({ acp: { enable_discovery: true, default_agent: 'codex' }, env }).agents.defaultAgent(), 'claude-code');
    assert.equal(await createAgents({ profiles: {}, env }).agents.defaultAgent(), undefined);
  });

  test('starting an unknown or unavailable agent, or one whose {env:VAR} is unset, fails with a coded error', async () => {
    const { agents } = createAgents({ profiles: { scripted: fixtureProfile({ env: { KEY: '{env:HEARTH_SURELY_UNSET_VAR}' } }), gone: { command: '/nonexistent/agent' } } });
    const options = { host: new ScriptedHost(), cwd: workspace.dir };
    await assert.rejects(agents.start('nobody', options), (error: AcpError) => error.code === 'acp.unknown_agent');
    await assert.rejects(agents.start('gone', options), (error: AcpError) => error.code === 'acp.unavailable');
    await assert.rejects(agents.start('scripted', options), (error: AcpError) => error.code === 'acp.unavailable' && /KEY \(\{env:HEARTH_SURELY_UNSET_VAR\}\)/.test(error.message));
  });

  test('an agent that dies during start-up is reported with its stderr', async () => {
    const script = join(bin, 'dies');
    await writeFile(script, '#!/bin/sh\necho "login required" >&2\nexit 4\n');
    await chmod(script, 0o755);
    const { agents } = createAgents({ profiles: { dies: { command: script } } });
    await assert.rejects(agents.start('dies', { host: new ScriptedHost(), cwd: workspace.dir }), (error: AcpError) => error.code === 'acp.agent_exited' && /login required/.test(error.message));
  });

  test('a profile extending a profile runs with the merged definition', async () => {
    const { agents } = createAgents({ profiles: { base: fixtureProfile({ env: { HEARTH_FIXTURE_VAR: 'from base' } }), derived: { extends: 'base', env: { HEARTH_FIXTURE_VAR: 'from derived' } } } });
    const session = await agents.start('derived', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      assert.equal(JSON.parse(textOf(await collect(session.prompt('info')))).env, 'from derived');
    } finally {
      await agents.dispose();
    }
  });
});
