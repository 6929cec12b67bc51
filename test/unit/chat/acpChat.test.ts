// The chat panel with a real ACP agent (the scripted SDK agent in process, its saved sessions
// surviving its restarts): a conversation resumes its agent session after a reload, says why when it
// cannot, shows the agent's pickers and commands, remembers choices, lists and opens the agent's
// own sessions (a loaded one replays its history), and closes the session when the conversation ends.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentCatalog } from '../../../src/core/agents/agentSession';
import { ChatController, type ChatControllerDeps } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { ChatState, HostMessage } from '../../../src/core/chat/protocol';
import { silentLogger } from '../../../src/core/host';
import { createAgents, fixtureProfile, tempWorkspace } from '../agents/acp/helpers';
import { MemoryStorage, until } from './fakeCatalog';

function catalogOf(agents: ReturnType<typeof createAgents>['agents']): AgentCatalog {
  return {
    list: () => agents.list(),
    defaultAgent: async () => 'scripted',
    start: (name, options) => agents.start(name, options),
    listSessions: (name, cwd) => agents.listSessions(name, cwd),
    closeSession: (name, cwd, id) => agents.closeSession(name, cwd, id),
  };
}

function panel(catalog: AgentCatalog, storage: MemoryStorage, preferences: MemoryStorage, cwd: string, signIn?: ChatControllerDeps['signIn']) {
  const posts: HostMessage[] = [];
  let n = 0;
  const controller = new ChatController({
    catalog,
    post: (m) => posts.push(m),
    store: new HistoryStore(storage),
    preferences,
    ...(signIn ? { signIn } : {}),
    models: { currentId: () => 'local/x', switchTo: async (id) => id, list: async () => ({ ids: [], errors: [] }), openSwitcher: async () => {} },
    notes: { activeNote: () => undefined, open: async () => {}, confine: async (path) => ({ absolute: path, display: path }), read: async () => '' },
    confirm: async () => true,
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: false, autoContext: false }),
    cwd: () => cwd,
    log: silentLogger,
    newId: () => `id${Date.now().toString(36)}${++n}`,
  });
  const state = (): ChatState => [...posts].reverse().find((m): m is Extract<HostMessage, { type: 'state' }> => m.type === 'state')!.state;
  const lastReply = () => {
    const turn = state().conversation.turns.at(-1)!;
    return turn.events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
  };
  const notices = () => posts.flatMap((m) => (m.type === 'notice' ? [m.text] : []));
  return { controller, posts, state, lastReply, notices };
}

const scripted = (env: Record<string, string>) => createAgents({ profiles: { scripted: fixtureProfile({ env }) } });

describe('chat with an external agent over ACP', () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  before(async () => (workspace = await tempWorkspace()));
  after(() => workspace.cleanup());

  test('a reloaded conversation resumes the agent session: the agent has the earlier turn and gets no recap', async () => {
    const { agents } = scripted({ HEARTH_FIXTURE_SESSIONS: 'resume' });
    const storage = new MemoryStorage();
    const prefs = new MemoryStorage();
    const first = panel(catalogOf(agents), storage, prefs, workspace.dir);
    await first.controller.handle({ type: 'ready' });
    await first.controller.handle({ type: 'send', text: 'remember the quince' });
    assert.equal(first.lastReply(), 'remembered:["remember the quince"]');
    assert.ok(first.state().conversation.agentSession?.id, 'the agent session is saved with the conversation');
    await first.controller.dispose(); // the window reloads
    const second = panel(catalogOf(agents), storage, prefs, workspace.dir);
    await second.controller.handle({ type: 'ready' });
    await second.controller.handle({ type: 'send', text: 'remember' });
    // Exactly the two messages: a recap would have arrived as a resource block in the prompt.
    assert.equal(second.lastReply(), 'remembered:["remember the quince","remember"]');
    assert.deepEqual(second.notices(), []);
    await second.controller.dispose();
    await agents.dispose();
  });

  test('an agent that cannot resume: the panel says why, and the new session gets Hearth\'s recap', async () => {
    const { agents } = scripted({});
    const storage = new MemoryStorage();
    const first = panel(catalogOf(agents), storage, new MemoryStorage(), workspace.dir);
    await first.controller.handle({ type: 'send', text: 'remember the medlar' });
    await first.controller.dispose();
    const second = panel(catalogOf(agents), storage, new MemoryStorage(), workspace.dir);
    await second.controller.handle({ type: 'send', text: 'remember' });
    assert.ok(second.notices().some((n) => /could not continue its earlier session \("scripted" offers neither session\/resume nor session\/load\); it starts a new one with Hearth's recap/.test(n)), second.notices().join('\n'));
    assert.match(second.lastReply(), /conversation%20so%20far.*User: remember the medlar/s);
    await second.controller.dispose();
    await agents.dispose();
  });

  test('the agent\'s pickers and commands reach the panel; a picked option is sent, remembered, and restored in the next conversation; :model switches the agent\'s model', async () => {
    const { agents } = scripted({ HEARTH_FIXTURE_CONTROLS: 'options', HEARTH_FIXTURE_COMMANDS: 'some' });
    const prefs = new MemoryStorage();
    const p = panel(catalogOf(agents), new MemoryStorage(), prefs, workspace.dir);
    // What the editor's status bar follows: the running agent's model (and nothing once its session ends).
    const models: (string | boolean | undefined)[] = [];
    p.controller.onDidChangeAgentControls((view) => models.push(view?.options.find((o) => o.category === 'model')?.value));
    await p.controller.handle({ type: 'send', text: 'echo hi' });
    const controls = await until(() => {
      const last = [...p.posts].reverse().find((m) => m.type === 'agentControls');
      return last?.type === 'agentControls' && last.controls?.commands.length ? last.controls : undefined;
    }, 'controls with commands');
    assert.deepEqual(controls.options.map((o) => o.id), ['mode', 'model', 'effort', 'web', 'flavour']);
    assert.deepEqual(controls.commands.map((c) => c.name), ['review', 'compact', 'init']);
    await p.controller.handle({ type: 'setAgentOption', id: 'effort', value: 'high' });
    await p.controller.handle({ type: 'command', name: 'model', arg: 'large' });
    await p.controller.handle({ type: 'send', text: 'config' });
    assert.deepEqual(JSON.parse(p.lastReply().slice('config:'.length)).options, { mode: 'ask', model: 'large', effort: 'high', web: false, dial: 3, flavour: 'plain' });
    await until(() => models.at(-1) === 'large', 'the status bar hears the agent\'s new model');
    assert.ok(models.length > 1 && models[0] !== 'large', JSON.stringify(models));
    assert.ok(p.notices().includes('Model for scripted: Fast: Small') === false && p.notices().some((n) => n.startsWith('Model for scripted: Smart: Large')));
    // A value the agent does not offer is refused with a notice, and never sent.
    await p.controller.handle({ type: 'setAgentOption', id: 'effort', value: 'extreme' });
    assert.ok(p.notices().some((n) => /"extreme" is not a choice of Reasoning/.test(n)));
    // A malformed option message is dropped by the protocol.
    await p.controller.handle({ type: 'setAgentOption', id: 'effort', value: 42 });
    // The next conversation with this agent starts with the remembered choices.
    await p.controller.handle({ type: 'newChat' });
    assert.equal(models.at(-1), undefined, 'the session ended: no agent model in the status bar');
    await p.controller.handle({ type: 'send', text: 'config' });
    assert.deepEqual(JSON.parse(p.lastReply().slice('config:'.length)).options, { mode: 'ask', model: 'large', effort: 'high', web: false, dial: 3, flavour: 'plain' });
    await p.controller.dispose();
    await agents.dispose();
  });

  test('the history lists the agent\'s own sessions; opening a loaded one replays its history as turns; :clear closes the session', async () => {
    const { agents } = scripted({ HEARTH_FIXTURE_SESSIONS: 'load,list,close' });
    const p = panel(catalogOf(agents), new MemoryStorage(), new MemoryStorage(), workspace.dir);
    await p.controller.handle({ type: 'send', text: 'remember the damson' });
    const id = p.state().conversation.agentSession!.id;
    await p.controller.handle({ type: 'newChat' });
    const replies: HostMessage[] = [];
    await p.controller.handle({ type: 'listAgentSessions', agent: 'scripted' }, (m) => replies.push(m));
    const listed = replies.find((m) => m.type === 'agentSessions');
    assert.ok(listed?.type === 'agentSessions');
    assert.deepEqual(listed.sessions.map((s) => [s.sessionId, s.title]), [[id, 'Title: remember the damson']]);
    await p.controller.handle({ type: 'openAgentSession', agent: 'scripted', sessionId: id, title: 'Title: remember the damson' });
    const turns = p.state().conversation.turns;
    assert.deepEqual(turns.map((t) => [t.text, t.events.flatMap((e) => (e.type === 'text' ? [e.text] : []))]), [['remember the damson', ['remembered:["remember the damson"]']]]);
    await p.controller.handle({ type: 'send', text: 'remember' });
    assert.equal(p.lastReply(), 'remembered:["remember the damson","remember"]');
    await p.controller.handle({ type: 'command', name: 'clear' });
    await p.controller.handle({ type: 'listAgentSessions', agent: 'scripted' }, (m) => replies.push(m));
    const after = replies.filter((m) => m.type === 'agentSessions').at(-1);
    assert.ok(after?.type === 'agentSessions');
    assert.deepEqual(after.sessions.map((s) => s.sessionId), [], 'the cleared conversation closed its agent session');
    await p.controller.dispose();
    await agents.dispose();
  });

  test('an agent that needs a sign-in: the editor\'s sign-in is asked, the turn answers; :logout signs out', async () => {
    const { agents } = scripted({ HEARTH_FIXTURE_AUTH: '1' });
    const asked: string[] = [];
    const p = panel(catalogOf(agents), new MemoryStorage(), new MemoryStorage(), workspace.dir, async (request) => (asked.push(request.methods.map((m) => m.id).join(',')), { methodId: 'browser' }));
    await p.controller.handle({ type: 'send', text: 'whoami' });
    assert.deepEqual(asked, ['api-key,browser,login']);
    assert.equal(p.lastReply(), 'signed-in:true key-set:false');
    await p.controller.handle({ type: 'command', name: 'logout' });
    assert.ok(p.notices().includes('Signed out of scripted.'), p.notices().join('\n'));
    await p.controller.dispose();
    await agents.dispose();
  });

  test('without a sign-in in the host, the turn shows acp.auth_required with the methods', async () => {
    const { agents } = scripted({ HEARTH_FIXTURE_AUTH: '1' });
    const p = panel(catalogOf(agents), new MemoryStorage(), new MemoryStorage(), workspace.dir);
    await p.controller.handle({ type: 'send', text: 'whoami' });
    const error = p.state().conversation.turns[0]!.events.find((e) => e.type === 'error');
    assert.ok(error?.type === 'error' && error.code === 'acp.auth_required' && /set FIXTURE_API_KEY/.test(error.remedy ?? ''), JSON.stringify(error));
    await p.controller.dispose();
    await agents.dispose();
  });

  test('deleting a conversation that is not the one shown closes its agent session (the agent started just for it)', async () => {
    const { agents, channels } = scripted({ HEARTH_FIXTURE_SESSIONS: 'resume,list,close' });
    const p = panel(catalogOf(agents), new MemoryStorage(), new MemoryStorage(), workspace.dir);
    await p.controller.handle({ type: 'send', text: 'remember the sloe' });
    const deleted = p.state().conversation;
    const sessionId = deleted.agentSession!.id;
    await p.controller.handle({ type: 'newChat' });
    await p.controller.handle({ type: 'send', text: 'remember the rowan' });
    const kept = p.state().conversation.agentSession!.id;
    const running = channels.length;
    await p.controller.handle({ type: 'deleteConversation', id: deleted.id });
    assert.equal(channels.length, running + 1, 'a process of the agent was started to close it');
    const replies: HostMessage[] = [];
    await p.controller.handle({ type: 'listAgentSessions', agent: 'scripted' }, (m) => replies.push(m));
    const listed = replies.find((m) => m.type === 'agentSessions');
    assert.ok(listed?.type === 'agentSessions');
    const ids = listed.sessions.map((s) => s.sessionId);
    assert.ok(!ids.includes(sessionId), 'the deleted conversation\'s session is closed');
    assert.ok(ids.includes(kept), 'the shown conversation\'s session stays');
    assert.equal(p.lastReply(), 'remembered:["remember the rowan"]');
    await p.controller.dispose();
    await agents.dispose();
  });

  test('hostile: a storm of 3000 available_commands_update notifications reaches the panel as a few coalesced posts, the last list winning', async () => {
    const { agents } = scripted({ HEARTH_FIXTURE_COMMANDS: 'storm' });
    const p = panel(catalogOf(agents), new MemoryStorage(), new MemoryStorage(), workspace.dir);
    await p.controller.handle({ type: 'send', text: 'echo hi' });
    const lastCommands = () => {
      const last = [...p.posts].reverse().find((m) => m.type === 'agentControls');
      return last?.type === 'agentControls' ? last.controls?.commands.map((c) => c.name) : undefined;
    };
    await until(() => (lastCommands()?.[0] === 'cmd2999' ? true : undefined), 'the last update in the panel');
    const posts = p.posts.filter((m) => m.type === 'agentControls').length;
    assert.ok(posts <= 60, `${posts} agentControls posts for 3000 updates`);
    assert.equal(p.lastReply(), 'hi');
    await p.controller.dispose();
    await agents.dispose();
  });

  test('a message sent while :new still ends the agent\'s session lands in the new conversation (it was lost in the old one)', async () => {
    const { agents } = scripted({ HEARTH_FIXTURE_SESSIONS: 'resume,close' });
    const p = panel(catalogOf(agents), new MemoryStorage(), new MemoryStorage(), workspace.dir);
    await p.controller.handle({ type: 'send', text: 'echo first' });
    // As the webview sends them: one after the other, without waiting for the first to finish.
    await Promise.all([p.controller.handle({ type: 'command', name: 'new' }), p.controller.handle({ type: 'send', text: 'echo second' })]);
    assert.deepEqual(p.state().conversation.turns.map((t) => t.text), ['echo second']);
    assert.equal(p.lastReply(), 'second');
    await p.controller.dispose();
    await agents.dispose();
  });
});
