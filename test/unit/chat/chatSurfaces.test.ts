// The side view and the panel beside the editor show one live conversation: a single controller
// broadcasting to every attached surface. A turn sent from one streams in both, a surface that
// opens mid-turn catches up (state and the open permission prompt) and can answer it, replies to
// one surface's own requests stay with it, and the last surface to close ends the session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/core/chat/chatController';
import { ChatSurfaces } from '../../../src/core/chat/chatSurfaces';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { HostMessage } from '../../../src/core/chat/protocol';
import { silentLogger } from '../../../src/core/host';
import { FakeCatalog, MemoryStorage, until } from './fakeCatalog';

function setup() {
  const catalog = new FakeCatalog();
  const storage = new MemoryStorage();
  let created = 0;
  const surfaces = new ChatSurfaces((post) => {
    created++;
    return new ChatController({
      catalog,
      post,
      store: new HistoryStore(storage),
      models: { currentId: () => 'local/m', switchTo: async (id) => id, list: async () => ({ ids: ['local/m', 'local/n'], errors: [] }), openSwitcher: async () => {} },
      notes: { activeNote: () => undefined, open: async () => {}, confine: async (path) => ({ absolute: path, display: path }), read: async () => '', search: async (query) => [{ path: `${query}.md`, snippet: query }] },
      confirm: async () => true,
      settings: () => ({ enableMarkdown: true, lazyAgentSelection: false }),
      cwd: () => '/ws',
      log: silentLogger,
    });
  });
  const inbox = () => {
    const messages: HostMessage[] = [];
    return { messages, post: (m: HostMessage) => messages.push(m) };
  };
  return { catalog, surfaces, inbox, created: () => created };
}

const texts = (messages: HostMessage[]) => messages.flatMap((m) => (m.type === 'event' && m.event.type === 'text' ? [m.event.text] : [])).join('');
const lastState = (messages: HostMessage[]) => {
  const state = [...messages].reverse().find((m) => m.type === 'state');
  assert.ok(state && state.type === 'state');
  return state.state;
};

test('two surfaces share one controller: a turn sent from one streams in both, and both show the same conversation', async () => {
  const { surfaces, inbox, created, catalog } = setup();
  const view = inbox();
  const panel = inbox();
  const a = surfaces.attach(view.post);
  const b = surfaces.attach(panel.post);
  assert.equal(a.controller, b.controller);
  assert.equal(created(), 1);
  await a.handle({ type: 'ready' });
  await b.handle({ type: 'ready' });
  await a.handle({ type: 'send', text: 'hello from the view' });
  assert.equal(texts(view.messages), 'Hello **world**');
  assert.equal(texts(panel.messages), 'Hello **world**', 'the panel saw the turn stream');
  await b.handle({ type: 'send', text: 'and from the panel' });
  assert.equal(catalog.started, 1, 'one agent session, not one per surface');
  assert.deepEqual(lastState(view.messages).conversation.turns.map((t) => t.text), ['hello from the view', 'and from the panel']);
  assert.deepEqual(lastState(panel.messages).conversation, lastState(view.messages).conversation);
});

test('a surface opened mid-turn catches up with the running turn and its open permission prompt, and can answer it', async () => {
  const { surfaces, inbox } = setup();
  const view = inbox();
  const a = surfaces.attach(view.post);
  await a.handle({ type: 'ready' });
  const turn = a.handle({ type: 'send', text: 'tool' });
  await until(() => view.messages.find((m) => m.type === 'permission'), 'prompt in the view');
  const panel = inbox();
  const b = surfaces.attach(panel.post);
  await b.handle({ type: 'ready' });
  const state = lastState(panel.messages);
  assert.equal(state.busy, true);
  assert.equal(state.conversation.turns.at(-1)!.status, 'running');
  const prompt = panel.messages.find((m) => m.type === 'permission');
  assert.ok(prompt && prompt.type === 'permission', 'the open prompt was shown to the new surface');
  assert.equal(view.messages.filter((m) => m.type === 'permission').length, 1, 'not shown twice in the view');
  await b.handle({ type: 'permission', requestId: prompt.requestId, optionId: 'allow' });
  await turn;
  for (const surface of [view, panel]) {
    assert.ok(surface.messages.some((m) => m.type === 'permissionDone' && m.optionId === 'allow'));
    assert.ok(surface.messages.some((m) => m.type === 'event' && m.event.type === 'tool_update' && m.event.status === 'completed'));
    assert.ok(surface.messages.some((m) => m.type === 'turnEnd'));
  }
});

test('replies to one surface\'s own requests (search hits, the model list) go to it alone', async () => {
  const { surfaces, inbox } = setup();
  const view = inbox();
  const panel = inbox();
  surfaces.attach(view.post);
  const b = surfaces.attach(panel.post);
  await b.handle({ type: 'searchNotes', query: 'tomatoes' });
  await b.handle({ type: 'requestModels' });
  assert.deepEqual(panel.messages.map((m) => m.type), ['searchResults', 'models']);
  assert.deepEqual(view.messages, []);
});

test('a closed surface gets nothing more; the last one to close ends the session, and the next surface restores the saved conversation', async () => {
  const { surfaces, inbox, catalog, created } = setup();
  const view = inbox();
  const panel = inbox();
  const a = surfaces.attach(view.post);
  const b = surfaces.attach(panel.post);
  await a.handle({ type: 'send', text: 'first' });
  await b.detach();
  const before = panel.messages.length;
  await a.handle({ type: 'send', text: 'second' });
  assert.equal(panel.messages.length, before);
  await b.handle({ type: 'send', text: 'from a closed panel' });
  assert.equal(catalog.prompts.length, 2, 'a detached surface cannot act');
  assert.equal(catalog.disposed, 0);
  await a.detach();
  assert.equal(catalog.disposed, 1, 'the agent session ended with the last surface');
  assert.equal(surfaces.current, undefined);
  const again = inbox();
  const c = surfaces.attach(again.post);
  assert.equal(created(), 2);
  await c.handle({ type: 'ready' });
  assert.deepEqual(lastState(again.messages).conversation.turns.map((t) => t.text), ['first', 'second']);
});
