// The chat panel's host side with a scripted AgentCatalog: protocol validation, streaming, history
// restored by a fresh controller, permissions (approve, reject, never-offered option), stop, errors
// with retry, the `:` commands and attachments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController, type ChatModels } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { ChatState, HostMessage } from '../../../src/core/chat/protocol';
import type { Logger } from '../../../src/core/host';
import { FakeCatalog, MemoryStorage, until } from './fakeCatalog';
import { sinkLogger } from '../../../src/core/logging/sinkLogger';

interface Harness {
  controller: ChatController;
  catalog: FakeCatalog;
  posts: HostMessage[];
  storage: MemoryStorage;
  warnings: string[];
  switched: string[];
  switcherOpened: number;
  confirmAnswer: boolean;
  confirms: string[];
  state(): ChatState;
  notices(): string[];
}

function harness(options: { storage?: MemoryStorage; catalog?: FakeCatalog; lazy?: boolean } = {}): Harness {
  const posts: HostMessage[] = [];
  const warnings: string[] = [];
  const h = {
    catalog: options.catalog ?? new FakeCatalog(),
    posts,
    storage: options.storage ?? new MemoryStorage(),
    warnings,
    switched: [] as string[],
    switcherOpened: 0,
    confirmAnswer: true,
    confirms: [] as string[],
  } as Harness;
  let current = 'local/qwen2.5:0.5b';
  const models: ChatModels = {
    currentId: () => current,
    switchTo: async (id) => {
      if (id.startsWith('nowhere/')) throw new Error('no provider named "nowhere" is configured (configured: local, cloud)');
      h.switched.push(id);
      current = id.includes('/') ? id : `local/${id}`;
      return current;
    },
    list: async () => ({ ids: ['local/qwen2.5:0.5b', 'local/llama3.2:latest', 'cloud/gpt-4o-mini'], errors: ['broken: cannot connect'] }),
    openSwitcher: async () => {
      h.switcherOpened++;
    },
  };
  const log: Logger = sinkLogger((level, m) => void (level === 'error' || level === 'warn' ? warnings.push(m) : undefined));
  let n = 0;
  h.controller = new ChatController({
    catalog: h.catalog,
    post: (m) => posts.push(m),
    store: new HistoryStore(h.storage),
    models,
    notes: {
      activeNote: () => ({ path: 'garden/tomatoes.md' }),
      open: async () => {}, confine: async (path) => ({ absolute: `/kiln/${path}`, display: path }),
      read: async (ref) => `# ${ref.path}\nTomatoes need sun.`,
    },
    confirm: async (message) => {
      h.confirms.push(message);
      return h.confirmAnswer;
    },
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: options.lazy ?? true }),
    cwd: () => '/ws',
    log,
    newId: () => `id${++n}`,
    now: () => 1_700_000_000_000 + n,
  });
  h.state = () => {
    const last = [...posts].reverse().find((m) => m.type === 'state');
    assert.ok(last && last.type === 'state', 'a state was posted');
    return last.state;
  };
  h.notices = () => posts.flatMap((m) => (m.type === 'notice' ? [m.text] : []));
  return h;
}

test('ready: agents with availability, the picker (lazy_agent_selection), the model, an empty conversation', async () => {
  const h = harness();
  await h.controller.handle({ type: 'ready' });
  const state = h.state();
  assert.deepEqual(
    state.agents.map((a) => [a.name, a.available]),
    [
      ['kiln', true],
      ['ghost-acp', false],
    ],
  );
  assert.equal(state.showPicker, true);
  assert.equal(state.activeAgent, undefined);
  assert.equal(state.model, 'local/qwen2.5:0.5b');
  assert.equal(state.conversation.turns.length, 0);
  assert.equal(state.settings.enableMarkdown, true);
});

test('malformed messages from the webview are dropped and logged, never acted on', async () => {
  const h = harness();
  for (const raw of [null, 'send', { type: 'send' }, { type: 'send', text: 42 }, { type: 'send', text: '' }, { type: 'bogus' }, { type: 'command', name: 'rm' }, { type: 'removeAttachment', index: -1 }]) {
    await h.controller.handle(raw);
  }
  assert.deepEqual(h.posts, []);
  assert.equal(h.catalog.prompts.length, 0);
  assert.equal(h.warnings.length, 8);
  assert.ok(h.warnings.every((w) => w.startsWith('[chat] ignored a malformed message from the panel')), h.warnings.join('\n'));
});

test('picking an agent: unavailable ones say why; an available one becomes the conversation\'s agent', async () => {
  const h = harness();
  const seen: (string | undefined)[] = [];
  h.controller.onDidChangeAgent((a) => seen.push(a));
  await h.controller.handle({ type: 'ready' });
  await h.controller.handle({ type: 'pickAgent', name: 'ghost-acp' });
  assert.match(h.notices().at(-1)!, /ghost-acp is not available: .*not on PATH/);
  await h.controller.handle({ type: 'pickAgent', name: 'kiln' });
  assert.equal(h.state().activeAgent, 'kiln');
  assert.equal(h.state().showPicker, false);
  assert.deepEqual(seen, ['kiln']);
});

test('a listener of the agent that throws is logged under [chat]; the pick and the other listeners go on; dispose ends the subscriptions', async () => {
  const h = harness();
  const seen: (string | undefined)[] = [];
  // A closure keeps the array's declared type (assert.deepEqual narrows `seen` itself to string[]).
  const record = (agent: string | undefined) => void seen.push(agent);
  h.controller.onDidChangeAgent(() => {
    throw new Error('status item gone');
  });
  h.controller.onDidChangeAgent(record);
  await h.controller.handle({ type: 'ready' });
  await h.controller.handle({ type: 'pickAgent', name: 'kiln' });
  assert.equal(h.state().activeAgent, 'kiln');
  assert.deepEqual(seen, ['kiln']);
  assert.deepEqual(h.warnings, ['[chat] a listener of the agent failed: status item gone']);
  await h.controller.dispose();
  h.controller.onDidChangeAgent(record);
  assert.deepEqual(seen, ['kiln']);
});

test('a message streams as events between turnStart and turnEnd, is saved, and a new controller restores it', async () => {
  const h = harness();
  await h.controller.handle({ type: 'ready' });
  await h.controller.handle({ type: 'send', text: 'hello there' });
  const types = h.posts.map((m) => m.type).filter((t) => t !== 'attachments');
  // ready: the state and the editor's active note for the one-click chip.
  assert.deepEqual(types.slice(0, 2), ['state', 'activeNote']);
  assert.deepEqual(types.slice(2, 8), ['turnStart', 'event', 'event', 'event', 'event', 'turnEnd']);
  const texts = h.posts.flatMap((m) => (m.type === 'event' && m.event.type === 'text' ? [m.event.text] : []));
  assert.deepEqual(texts, ['Hel', 'lo **world**']);
  // No agent was picked: the catalog's default answered.
  assert.equal(h.state().activeAgent, 'kiln');
  assert.equal(h.state().history.length, 1);
  assert.equal(h.state().history[0]!.title, 'hello there');

  const reopened = harness({ storage: h.storage });
  await reopened.controller.handle({ type: 'ready' });
  const restored = reopened.state().conversation;
  assert.equal(restored.turns.length, 1);
  assert.equal(restored.turns[0]!.status, 'done');
  // Chunks coalesced in storage.
  assert.deepEqual(restored.turns[0]!.events.filter((e) => e.type === 'text'), [{ type: 'text', text: 'Hello **world**' }]);
  assert.equal(reopened.state().showPicker, false, 'a restored conversation keeps its agent');

  // The new (internal) agent session did not see the earlier turns: it starts with them as chat
  // history, and no recap is attached.
  await reopened.controller.handle({ type: 'send', text: 'and then?' });
  await reopened.controller.handle({ type: 'send', text: 'thanks' });
  const [first, second] = reopened.catalog.prompts;
  assert.deepEqual(reopened.catalog.starts.map((s) => s.history), [[{ role: 'user', text: 'hello there' }, { role: 'assistant', text: 'Hello **world**' }]]);
  assert.deepEqual(first!.attachments, []);
  assert.deepEqual(second!.attachments, []);
});

test('an external agent cannot be given history: its new session gets the earlier turns as a recap, once', async () => {
  const h = harness();
  await h.controller.handle({ type: 'send', text: 'hello there' });
  const reopened = harness({ storage: h.storage });
  reopened.catalog.sessionKind = 'external';
  await reopened.controller.handle({ type: 'send', text: 'and then?' });
  await reopened.controller.handle({ type: 'send', text: 'thanks' });
  const [first, second] = reopened.catalog.prompts;
  assert.equal(first!.attachments[0]!.path, 'conversation so far');
  assert.equal(first!.attachments[0]!.text, 'User: hello there\nAssistant: Hello **world**');
  assert.deepEqual(second!.attachments, []);
});

test('permission prompts carry the agent\'s options; approve runs the tool, reject denies it, an option never offered cancels', async () => {
  for (const [answer, expected] of [
    ['allow', 'completed'],
    ['reject', 'denied'],
    ['allow_always_forged', 'denied'],
  ] as const) {
    const h = harness();
    await h.controller.handle({ type: 'pickAgent', name: 'kiln' });
    const turn = h.controller.handle({ type: 'send', text: 'tool' });
    const prompt = await until(() => h.posts.find((m) => m.type === 'permission'), 'permission prompt');
    assert.ok(prompt.type === 'permission');
    assert.deepEqual(
      prompt.request.options.map((o) => o.name),
      ['Allow once', 'Reject'],
    );
    await h.controller.handle({ type: 'permission', requestId: prompt.requestId, optionId: answer });
    await turn;
    const update = h.posts.find((m) => m.type === 'event' && m.event.type === 'tool_update');
    assert.ok(update && update.type === 'event' && update.event.type === 'tool_update');
    assert.equal(update.event.status, expected, answer);
    const done = h.posts.find((m) => m.type === 'permissionDone');
    assert.deepEqual(done, { type: 'permissionDone', requestId: prompt.requestId, ...(answer === 'allow_always_forged' ? {} : { optionId: answer }) });
    // The stored turn folds the update into its call.
    const stored = h.state().conversation.turns[0]!.events.find((e) => e.type === 'tool_call');
    assert.equal(stored?.type === 'tool_call' && stored.status, expected);
  }
});

test('mentions: completeNotes answers only the asking surface; the active-note chip attaches the selection when there is one', async () => {
  const h = harness();
  const replies: HostMessage[] = [];
  await h.controller.handle({ type: 'completeNotes', query: 'tom' }, (m) => replies.push(m));
  assert.deepEqual(replies, [{ type: 'noteCompletions', query: 'tom', items: [] }], 'no completion source: an empty list');
  await h.controller.handle({ type: 'completeNotes', query: 'x'.repeat(301) });
  assert.ok(h.warnings.some((w) => /malformed/.test(w)), 'an over-long query is dropped');
  await h.controller.handle({ type: 'attachActiveNote' });
  assert.deepEqual(h.posts.filter((m) => m.type === 'attachments').at(-1), { type: 'attachments', attachments: [{ path: 'garden/tomatoes.md' }] });
});

test('a permission prompt of the third turn is posted for the third turn, not the first', async () => {
  const h = harness();
  await h.controller.handle({ type: 'pickAgent', name: 'kiln' });
  await h.controller.handle({ type: 'send', text: 'one' });
  await h.controller.handle({ type: 'send', text: 'two' });
  const turn = h.controller.handle({ type: 'send', text: 'tool' });
  const prompt = await until(() => h.posts.find((m) => m.type === 'permission'), 'permission prompt');
  const third = h.posts.filter((m) => m.type === 'turnStart').at(-1);
  assert.ok(prompt.type === 'permission' && third?.type === 'turnStart');
  assert.equal(h.catalog.started, 1, 'one session for the three turns');
  assert.equal(prompt.turnId, third.turnId);
  await h.controller.handle({ type: 'permission', requestId: prompt.requestId, optionId: 'allow' });
  await turn;
});

test('a reply that drew on notes ends with its sources: attachments, then what completed tool calls found; saved with the turn', async () => {
  const h = harness();
  await h.controller.handle({ type: 'pickAgent', name: 'kiln' });
  h.controller.attach({ path: 'garden/tomatoes.md', startLine: 2, endLine: 5 }, 'text');
  await h.controller.handle({ type: 'send', text: 'research' });
  const expected = [
    { path: 'garden/tomatoes.md', startLine: 2, endLine: 5, via: 'attachment' },
    { path: 'techniques/Composting.md', startLine: 3, endLine: 9, via: 'semantic_search' },
    { path: 'garden/beds.md', startLine: 1, endLine: 4, via: 'semantic_search' },
  ];
  const posted = h.posts.find((m) => m.type === 'sources');
  assert.ok(posted && posted.type === 'sources');
  assert.deepEqual(posted.sources, expected, 'the failed read_note is not a source');
  assert.deepEqual(h.state().conversation.turns[0]!.sources, expected);
  await h.controller.handle({ type: 'send', text: 'hello' });
  assert.equal(h.state().conversation.turns[1]!.sources, undefined, 'a reply that drew on nothing has no sources');
});

test('stop aborts the running turn, cancels an open prompt, and the turn ends as cancelled', async () => {
  const h = harness();
  await h.controller.handle({ type: 'pickAgent', name: 'kiln' });
  const turn = h.controller.handle({ type: 'send', text: 'slow' });
  await until(() => h.posts.some((m) => m.type === 'event'), 'first chunk');
  assert.equal(h.controller.busy, true);
  await h.controller.handle({ type: 'stop' });
  await turn;
  assert.equal(h.catalog.lastSignal?.aborted, true);
  const events = h.posts.flatMap((m) => (m.type === 'event' ? [m.event] : []));
  assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled' });
  assert.equal(h.state().conversation.turns[0]!.status, 'cancelled');
  assert.equal(h.controller.busy, false);
});

test('a failing agent shows the error with its code and remedy in the turn; retry runs the turn again on a fresh session', async () => {
  const h = harness();
  await h.controller.handle({ type: 'pickAgent', name: 'kiln' });
  await h.controller.handle({ type: 'send', text: 'crash' });
  const error = h.posts.find((m) => m.type === 'event' && m.event.type === 'error');
  assert.ok(error && error.type === 'event');
  // The agent's CLI-flavoured remedy is replaced by the editor's one remedy, naming an editor command.
  assert.deepEqual(error.event, { type: 'error', code: 'llm.unreachable', message: 'cannot connect to local at http://127.0.0.1:9', remedy: 'Start the model server or fix the endpoint, then Retry ("Hearth: Check Local Runner" tests the local runner).' });
  const turn = h.state().conversation.turns[0]!;
  assert.equal(turn.status, 'error');
  assert.equal(h.catalog.disposed, 1, 'the broken session was ended');

  h.catalog.healed = true;
  await h.controller.handle({ type: 'retry', turnId: turn.id });
  const retried = h.state().conversation.turns;
  assert.equal(retried.length, 1, 'retried in place');
  assert.equal(retried[0]!.status, 'done');
  assert.equal(h.catalog.started, 2);
});

test(':model switches (or opens the switcher), :models lists with errors, :help, unknown providers are explained', async () => {
  const h = harness();
  await h.controller.handle({ type: 'command', name: 'model', arg: 'cloud/gpt-4o-mini' });
  assert.deepEqual(h.switched, ['cloud/gpt-4o-mini']);
  assert.equal(h.notices().at(-1), 'Model for this session: cloud/gpt-4o-mini');
  await h.controller.handle({ type: 'command', name: 'model', arg: 'nowhere/x' });
  assert.match(h.notices().at(-1)!, /no provider named "nowhere"/);
  await h.controller.handle({ type: 'command', name: 'model' });
  assert.equal(h.switcherOpened, 1);
  await h.controller.handle({ type: 'command', name: 'models' });
  const models = h.posts.at(-1);
  assert.ok(models?.type === 'notice');
  assert.equal(models.text, 'Models — active: cloud/gpt-4o-mini');
  assert.deepEqual(models.items, ['local/qwen2.5:0.5b', 'local/llama3.2:latest', 'cloud/gpt-4o-mini (active)', 'unavailable: broken: cannot connect']);
  await h.controller.handle({ type: 'command', name: 'help' });
  const help = h.posts.at(-1);
  assert.ok(help?.type === 'notice');
  assert.equal(help.text, 'Commands');
  assert.ok(help.items!.some((item) => item.startsWith(':agent — ')));
  await h.controller.handle({ type: 'requestModels' });
  assert.deepEqual(h.posts.at(-1), { type: 'models', ids: ['local/qwen2.5:0.5b', 'local/llama3.2:latest', 'cloud/gpt-4o-mini'] });
});

test(':new starts an empty conversation keeping the agent; :clear empties and forgets the current one; :agent opens the picker', async () => {
  const h = harness();
  await h.controller.handle({ type: 'pickAgent', name: 'kiln' });
  await h.controller.handle({ type: 'send', text: 'first' });
  const firstId = h.state().conversation.id;
  await h.controller.handle({ type: 'command', name: 'new' });
  assert.notEqual(h.state().conversation.id, firstId);
  assert.equal(h.state().conversation.turns.length, 0);
  assert.equal(h.state().activeAgent, 'kiln', '"New" keeps the agent');
  assert.equal(h.state().showPicker, false);
  assert.equal(h.state().history.length, 1, 'the first conversation stays listed');

  await h.controller.handle({ type: 'send', text: 'second' });
  assert.equal(h.state().history.length, 2);
  await h.controller.handle({ type: 'command', name: 'clear' });
  assert.equal(h.state().conversation.turns.length, 0);
  assert.deepEqual(
    h.state().history.map((s) => s.title),
    ['first'],
  );
  await h.controller.handle({ type: 'command', name: 'agent' });
  assert.equal(h.state().showPicker, true);
  await h.controller.handle({ type: 'command', name: 'agent', arg: 'kiln' });
  assert.equal(h.state().activeAgent, 'kiln');
});

test('deleting a conversation asks first; a refusal keeps it; opening another restores it', async () => {
  const h = harness();
  await h.controller.handle({ type: 'send', text: 'keep me' });
  const keepId = h.state().conversation.id;
  await h.controller.handle({ type: 'newChat' });
  await h.controller.handle({ type: 'send', text: 'delete me' });
  const deleteId = h.state().conversation.id;

  h.confirmAnswer = false;
  await h.controller.handle({ type: 'deleteConversation', id: deleteId });
  assert.match(h.confirms[0]!, /delete me/);
  assert.equal(h.state().history.length, 2);

  h.confirmAnswer = true;
  await h.controller.handle({ type: 'deleteConversation', id: deleteId });
  assert.deepEqual(
    h.state().history.map((s) => s.id),
    [keepId],
  );
  assert.notEqual(h.state().conversation.id, deleteId, 'the deleted conversation is no longer shown');

  await h.controller.handle({ type: 'openConversation', id: keepId });
  assert.equal(h.state().conversation.turns[0]!.text, 'keep me');
  await h.controller.handle({ type: 'openConversation', id: 'gone' });
  assert.match(h.notices().at(-1)!, /no longer saved/);
});

test('attachments: the active note and given text go with the next message, then the list is empty', async () => {
  const h = harness();
  await h.controller.handle({ type: 'attachActiveNote' });
  h.controller.attach({ path: 'garden/beans.md', startLine: 3, endLine: 4 }, 'selected lines');
  await h.controller.handle({ type: 'attachActiveNote' }); // the same note twice is attached once
  assert.deepEqual(h.posts.at(-1), {
    type: 'attachments',
    attachments: [{ path: 'garden/tomatoes.md' }, { path: 'garden/beans.md', startLine: 3, endLine: 4 }],
  });
  await h.controller.handle({ type: 'removeAttachment', index: 5 }); // out of range: nothing removed
  await h.controller.handle({ type: 'send', text: 'what do they need?' });
  assert.deepEqual(h.catalog.prompts[0]!.attachments, [
    { path: 'garden/tomatoes.md', text: '# garden/tomatoes.md\nTomatoes need sun.' },
    { path: 'garden/beans.md', startLine: 3, endLine: 4, text: 'selected lines' },
  ]);
  assert.deepEqual(h.state().attachments, []);
  assert.equal(h.state().conversation.turns[0]!.attachments.length, 2);
  // Search is not wired in this host: the panel is told why.
  await h.controller.handle({ type: 'searchNotes', query: 'beans' });
  assert.deepEqual(h.posts.at(-1), { type: 'searchResults', query: 'beans', hits: [], error: 'Search is not available yet: build the index first.' });
});

test('a model switch makes the next turn start a new internal agent session (it reads the model at start)', async () => {
  const h = harness();
  await h.controller.handle({ type: 'send', text: 'one' });
  await h.controller.handle({ type: 'send', text: 'two' });
  assert.equal(h.catalog.started, 1, 'one session for the conversation');
  await h.controller.handle({ type: 'command', name: 'model', arg: 'cloud/gpt-4o-mini' });
  h.controller.modelChanged();
  assert.deepEqual(h.posts.at(-1), { type: 'model', model: 'cloud/gpt-4o-mini' });
  await h.controller.handle({ type: 'send', text: 'three' });
  assert.equal(h.catalog.started, 2);
  assert.equal(h.catalog.disposed, 1);
});
