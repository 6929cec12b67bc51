import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentControlsView } from '../../../../src/core/agents/agentControls';
import { CONTROL_LIMITS, MODE_OPTION_ID, MODEL_OPTION_ID } from '../../../../src/core/agents/acp/session/sessionControls';
import { collect, createAgents, fixtureProfile, ScriptedHost, tempWorkspace, textOf, waitFor } from './helpers';

const scripted = (env: Record<string, string>) => ({ profiles: { scripted: fixtureProfile({ env }) } });

describe('ACP modes, models, config options and commands (scripted agent in process)', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());

  test('config options become pickers: groups flattened, unknown categories as other, unknown types left out', async () => {
    const { agents, log } = createAgents(scripted({ HEARTH_FIXTURE_CONTROLS: 'options' }));
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      const view = session.controls!.current();
      assert.deepEqual(view.options.map((o) => [o.id, o.category, o.type]), [
        ['mode', 'mode', 'select'],
        ['model', 'model', 'select'],
        ['effort', 'thought_level', 'select'],
        ['web', 'other', 'boolean'],
        ['flavour', 'other', 'select'],
      ]);
      const model = view.options[1]!;
      assert.ok(model.type === 'select');
      assert.deepEqual(model.choices, [{ value: 'small', name: 'Fast: Small' }, { value: 'large', name: 'Smart: Large', description: 'slower' }]);
      assert.ok(log.lines.some((line) => /1 of 6 config options skipped/.test(line)), 'the slider is logged, not shown');
    } finally {
      await session.dispose();
    }
  });

  test('set_config_option reaches the agent; the agent\'s own update moves the picker; a bad value is refused before sending', async () => {
    const { agents } = createAgents(scripted({ HEARTH_FIXTURE_CONTROLS: 'options' }));
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    const seen: AgentControlsView[] = [];
    const listening = session.controls!.onDidChange((view) => seen.push(view));
    try {
      await session.controls!.setOption('model', 'large');
      await session.controls!.setOption('web', true);
      assert.deepEqual(JSON.parse(textOf(await collect(session.prompt('config'))).slice('config:'.length)).options, { mode: 'ask', model: 'large', effort: 'low', web: true, dial: 3, flavour: 'plain' });
      await collect(session.prompt('agent-sets code'));
      assert.equal(session.controls!.current().options.find((o) => o.id === 'mode')!.value, 'code');
      assert.ok(seen.some((view) => view.options.find((o) => o.id === 'mode')?.value === 'code'), 'listeners heard the agent\'s change');
      await assert.rejects(session.controls!.setOption('model', 'huge'), (error: { code?: string }) => error.code === 'acp.option_refused');
      await assert.rejects(session.controls!.setOption('web', 'yes'), (error: { code?: string }) => error.code === 'acp.option_refused');
      await assert.rejects(session.controls!.setOption('nope', 'x'), (error: { code?: string }) => error.code === 'acp.option_refused');
    } finally {
      listening.dispose();
      await session.dispose();
    }
  });

  test('an agent with only modes and models: pickers that use set_mode and set_model', async () => {
    const { agents } = createAgents(scripted({ HEARTH_FIXTURE_CONTROLS: 'modes' }));
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      assert.deepEqual(session.controls!.current().options.map((o) => [o.id, o.value]), [[MODE_OPTION_ID, 'read-only'], [MODEL_OPTION_ID, 'm1']]);
      await session.controls!.setOption(MODE_OPTION_ID, 'auto');
      await session.controls!.setOption(MODEL_OPTION_ID, 'm2');
      const config = JSON.parse(textOf(await collect(session.prompt('config'))).slice('config:'.length));
      assert.deepEqual([config.mode, config.model], ['auto', 'm2']);
      assert.deepEqual(session.controls!.current().options.map((o) => o.value), ['auto', 'm2']);
      await collect(session.prompt('agent-sets read-only'));
      assert.equal(session.controls!.current().options[0]!.value, 'read-only');
    } finally {
      await session.dispose();
    }
  });

  test('remembered choices are restored when a session opens (and on resume); stale ones are skipped', async () => {
    const { agents } = createAgents(scripted({ HEARTH_FIXTURE_CONTROLS: 'options', HEARTH_FIXTURE_SESSIONS: 'resume' }));
    const preferences = { model: 'large', effort: 'nonexistent', gone: 'x' };
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir, preferences });
    const sessionId = session.opening!.sessionId;
    assert.equal(session.controls!.current().options.find((o) => o.id === 'model')!.value, 'large');
    assert.equal(session.controls!.current().options.find((o) => o.id === 'effort')!.value, 'low');
    await session.controls!.setOption('mode', 'code');
    await session.dispose();
    const resumed = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir, resume: sessionId, preferences: { mode: 'code', model: 'large' } });
    try {
      const config = JSON.parse(textOf(await collect(resumed.prompt('config'))).slice('config:'.length));
      assert.deepEqual([config.options.mode, config.options.model], ['code', 'large']);
    } finally {
      await resumed.dispose();
    }
  });

  test('available_commands_update: name, description, input hint', async () => {
    const { agents } = createAgents(scripted({ HEARTH_FIXTURE_COMMANDS: 'some' }));
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      assert.ok(await waitFor(() => session.controls!.current().commands.length === 3));
      assert.deepEqual(session.controls!.current().commands[0], { name: 'review', description: 'Review the current changes', hint: 'what to focus on' });
      // Sent as the agent expects: the text, starting with the slash.
      assert.equal(textOf(await collect(session.prompt('/review the tests'))), 'command:review:the tests');
    } finally {
      await session.dispose();
    }
  });

  test('hostile: thousands of commands and options (one with 10 000 choices) are bounded, logged, and the session answers', async () => {
    const { agents, log } = createAgents(scripted({ HEARTH_FIXTURE_COMMANDS: 'flood', HEARTH_FIXTURE_CONTROLS: 'flood' }));
    const session = await agents.start('scripted', { host: new ScriptedHost(), cwd: workspace.dir });
    try {
      assert.ok(await waitFor(() => session.controls!.current().commands.length > 0));
      const view = session.controls!.current();
      assert.equal(view.commands.length, CONTROL_LIMITS.commands);
      assert.ok(view.commands.every((c) => c.description.length <= CONTROL_LIMITS.description && /^cmd\d+$/.test(c.name)), 'malformed names dropped, descriptions clipped');
      assert.equal(view.options.length, CONTROL_LIMITS.options);
      const first = view.options[0]!;
      assert.ok(first.type === 'select' && first.choices.length === CONTROL_LIMITS.choices);
      assert.ok(log.lines.some((line) => /config options skipped/.test(line)) && log.lines.some((line) => /commands skipped/.test(line)));
      assert.equal(textOf(await collect(session.prompt('echo still fine'))), 'still fine');
    } finally {
      await session.dispose();
    }
  });
});
