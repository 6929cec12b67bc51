// Issue 12 "Secrets never leave", the chat panel: an agent (here an external one, whose text Hearth
// does not write) echoes the key in its answer, an error event and a thrown error. What the webview
// receives and what the history storage keeps must not contain it; the messages themselves stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentCatalog, AgentDescriptor, AgentEvent, AgentSession } from '../../../src/core/agents/agentSession';
import { ChatController } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { HostMessage } from '../../../src/core/chat/protocol';
import { HearthError } from '../../../src/core/errors';
import { silentLogger, type Logger } from '../../../src/core/host';
import { REDACTED, Redactor } from '../../../src/core/logging/redactor';
import { MemoryStorage, until } from './fakeCatalog';


const KEY = 'zz-chat-key-4f81c2d9';
const ECHO: AgentDescriptor = { name: 'echo-acp', kind: 'external', available: true };

/** One external agent that leaks the key three ways, then fails with it in the error message. */
class LeakyCatalog implements AgentCatalog {
  async list(): Promise<AgentDescriptor[]> {
    return [ECHO];
  }
  async defaultAgent(): Promise<string> {
    return ECHO.name;
  }
  async start(): Promise<AgentSession> {
    return {
      id: 's1',
      agent: ECHO,
      async *prompt(text: string): AsyncIterable<AgentEvent> {
        yield { type: 'text', text: `Calling the API with ${KEY} for "${text}"` };
        yield { type: 'tool_call', id: 't1', name: 'fetch', arguments: { headers: { authorization: `Bearer ${KEY}` } }, status: 'pending' };
        yield { type: 'error', code: 'agent.failed', message: `401 from upstream: key ${KEY} rejected` };
        throw new HearthError('agent.crashed', `agent died holding ${KEY}`);
      },
      async dispose() {},
    };
  }
}

test('the chat controller never posts, nor saves, a registered key', async () => {
  const redactor = new Redactor();
  redactor.add(KEY); // what the host does when it resolves the key
  const posts: HostMessage[] = [];
  const storage = new MemoryStorage();
  const log: Logger = silentLogger;
  let n = 0;
  const controller = new ChatController({
    catalog: new LeakyCatalog(),
    post: (m) => posts.push(m),
    store: new HistoryStore(storage, redactor),
    models: { currentId: () => 'x/y', switchTo: async (id) => id, list: async () => ({ ids: [], errors: [] }), openSwitcher: async () => {} },
    notes: { activeNote: () => undefined, open: async () => {}, confine: async (path) => ({ absolute: path, display: path }), read: async () => '' },
    confirm: async () => true,
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: false }),
    cwd: () => '/ws',
    log,
    redactor,
    newId: () => `id${++n}`,
    now: () => 1_700_000_000_000 + n,
  });
  await controller.handle({ type: 'ready' });
  await controller.handle({ type: 'send', text: `please use ${KEY}` });
  await until(() => posts.some((m) => m.type === 'turnEnd'), 'the turn ended');
  await until(() => storage.map.size > 0 && posts.filter((m) => m.type === 'state').length > 1, 'the conversation was saved');

  const webview = JSON.stringify(posts);
  assert.ok(!webview.includes(KEY), `the webview received the key:\n${webview}`);
  const saved = JSON.stringify([...storage.map.entries()]);
  assert.ok(!saved.includes(KEY), `the history storage holds the key:\n${saved}`);

  // The events themselves arrive, with the key replaced.
  const events = posts.flatMap((m) => (m.type === 'event' ? [m.event] : []));
  assert.ok(events.some((e) => e.type === 'text' && e.text.includes(`with ${REDACTED} for`)));
  assert.ok(events.some((e) => e.type === 'error' && e.message === `401 from upstream: key ${REDACTED} rejected`));
  assert.ok(events.some((e) => e.type === 'error' && e.message === `agent died holding ${REDACTED}`));
  assert.ok(saved.includes(REDACTED));
});
