// When the chat's provider does not answer (issue 29): the error box offers what fits this machine,
// once, in place — start or install the local runner, a configured provider that answers, a model
// the editor has (any vendor), a hosted key — and a click carries the choice out on the host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController, type ChatModels } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { HostMessage } from '../../../src/core/chat/protocol';
import { unansweredChoices, type ProviderChoice, type UnansweredFacts } from '../../../src/core/chat/unansweredChoices';
import { silentLogger } from '../../../src/core/host';
import { FakeCatalog, MemoryStorage, until } from './fakeCatalog';

const facts = (overrides: Partial<UnansweredFacts> = {}): UnansweredFacts => ({
  active: { name: 'local', type: 'local_runner', endpoint: 'http://127.0.0.1:11434' },
  answering: [],
  editorModels: [],
  keyless: [],
  ...overrides,
});

test('a local runner that is installed is offered to start; one that is not, to install', () => {
  assert.deepEqual(unansweredChoices(facts({ runnerInstalled: true })).map((p) => p.action), [{ kind: 'startRunner' }]);
  assert.deepEqual(unansweredChoices(facts({ runnerInstalled: false })).map((p) => p.action), [{ kind: 'installRunner' }]);
  // A hosted provider that does not answer: no runner to start.
  assert.deepEqual(unansweredChoices(facts({ active: { name: 'cloud', type: 'cloud_a' }, runnerInstalled: true })), []);
});

test('models the editor has, of any vendor, are offered; through a configured githubcopilot provider when there is one', () => {
  const editorModels = [
    { id: 'gpt-4o', name: 'GPT-4o', vendor: 'copilot' },
    { id: 'acme/llama3', name: 'Llama 3', vendor: 'acme' },
  ];
  const without = unansweredChoices(facts({ editorModels }));
  assert.deepEqual(without.map((p) => p.choice.label), ['Use GPT-4o (copilot)', 'Use Llama 3 (acme)']);
  assert.deepEqual(without[1].action, { kind: 'editorModel', model: 'acme/llama3' });
  assert.match(without[0].choice.detail ?? '', /adds a githubcopilot provider/);
  const through = unansweredChoices(facts({ editorModels, editorProvider: 'editor' }));
  assert.deepEqual(through[0].action, { kind: 'editorModel', model: 'gpt-4o', provider: 'editor' });
});

test('providers that answer and hosted providers without a key are offered, each with a unique id', () => {
  const planned = unansweredChoices(facts({ runnerInstalled: true, answering: ['cloud/gpt-4o-mini', 'b/x', 'c/y'], keyless: ['router'], editorModels: [{ id: 'gpt-4o', name: 'GPT-4o', vendor: 'copilot' }] }));
  assert.deepEqual(planned.map((p) => p.choice.label), ['Start the local runner', 'Use cloud/gpt-4o-mini', 'Use b/x', 'Use GPT-4o (copilot)', 'Set API Key for router']);
  assert.equal(new Set(planned.map((p) => p.choice.id)).size, planned.length);
});

function panel(models: Partial<ChatModels>) {
  const posts: HostMessage[] = [];
  const controller = new ChatController({
    catalog: new FakeCatalog(),
    post: (m) => posts.push(m),
    store: new HistoryStore(new MemoryStorage()),
    models: { currentId: () => 'local/llama3.2', switchTo: async (id) => id, list: async () => ({ ids: [], errors: [] }), openSwitcher: async () => {}, ...models },
    notes: { activeNote: () => undefined, open: async () => {}, confine: async (path) => ({ absolute: path, display: path }), read: async () => '' },
    confirm: async () => true,
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: false }),
    cwd: () => '/ws',
    log: silentLogger,
  });
  return { controller, posts };
}

test('in the chat panel, a provider that does not answer gets the choices in its turn; a click runs the choice', async () => {
  const offered: ProviderChoice[] = [{ id: 'runner.start', label: 'Start the local runner' }];
  const chosen: string[] = [];
  const { controller, posts } = panel({ unanswered: async () => offered, choose: async (id) => void chosen.push(id) });
  await controller.handle({ type: 'send', text: 'crash' });
  const message = await until(() => posts.find((m) => m.type === 'choices'), 'the choices');
  const turnStart = posts.find((m) => m.type === 'turnStart');
  assert.deepEqual(message, { type: 'choices', turnId: turnStart?.type === 'turnStart' ? turnStart.turnId : '', choices: offered });
  // Not saved with the conversation: what fits this machine is asked again, not replayed.
  assert.ok(!JSON.stringify(posts.filter((m) => m.type === 'state')).includes('runner.start'));
  await controller.handle({ type: 'choice', id: 'runner.start' });
  assert.deepEqual(chosen, ['runner.start']);
  await controller.dispose();
});

test('an answer, or another error, offers nothing', async () => {
  let asked = 0;
  const { controller, posts } = panel({ unanswered: async () => (asked++, [{ id: 'x', label: 'x' }]) });
  await controller.handle({ type: 'send', text: 'hello' });
  await until(() => posts.find((m) => m.type === 'turnEnd'), 'the turn to end');
  assert.equal(asked, 0);
  assert.equal(posts.some((m) => m.type === 'choices'), false);
  await controller.dispose();
});
