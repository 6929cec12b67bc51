// After a `:model` switch or a reload, an internal agent's new session continues the conversation
// with the earlier turns as real chat messages (user, assistant), not as a recap attachment: the
// chat controller over the real agent catalog and internal agent, through the real OpenAI and
// Anthropic SDKs against aimock, checked on the requests the model actually received.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createAgentCatalog } from '../../../src/core/agents/agentSetup';
import { ChatController, type ChatModels } from '../../../src/core/chat/chatController';
import { HistoryStore } from '../../../src/core/chat/conversation/historyStore';
import type { HostMessage } from '../../../src/core/chat/protocol';
import type { LlmProviderType } from '../../../src/core/config/providerTypes';
import { silentLogger } from '../../../src/core/host';
import { formatModelId } from '../../../src/core/llm/modelId';
import { agentDeps, KILN_NOTES, lastMessageText, mockConfig, tempDir, writeFiles } from '../agents/helpers';
import { startMockLlm, type MockLlm } from '../llm/mockLlm';
import { MemoryStorage } from './fakeCatalog';

/** What the controllers posted to their panel. */
const posts: HostMessage[] = [];

type WireMessage = { role: string; content: unknown };

let server: MockLlm;
let kiln: string;
let cleanup: () => Promise<void>;

before(async () => {
  server = await startMockLlm();
  for (const [key, answer] of [['KEY-first', 'Tomatoes like sun.'], ['KEY-second', 'Water them daily.'], ['KEY-third', 'Basil, mostly.']]) {
    server.mock.on({ predicate: (req: { messages: WireMessage[] }) => lastMessageText(req).includes(key) } as never, { content: answer } as never);
  }
  const made = await tempDir();
  kiln = made.dir;
  cleanup = made.cleanup;
  await writeFiles(kiln, KILN_NOTES);
});
after(async () => {
  await server.stop();
  await cleanup();
});

function chat(type: LlmProviderType, storage: MemoryStorage, config = mockConfig(type, server.url, 'model-a')) {
  const deps = agentDeps(config, kiln);
  const catalog = createAgentCatalog({ config: () => config, runtime: deps.runtime, kilnContext: deps.kilnContext, globalConfigDir: join(kiln, 'no-global'), workspaceRoot: kiln, log: silentLogger });
  const selection = deps.runtime.selection;
  const models: ChatModels = {
    currentId: () => selection.currentId(),
    switchTo: async (id) => {
      const selected = selection.switchTo(id);
      return formatModelId(selected.name, selected.model);
    },
    list: async () => ({ ids: [], errors: [] }),
    openSwitcher: async () => {},
  };
  const controller = new ChatController({
    catalog,
    post: (m) => posts.push(m),
    store: new HistoryStore(storage),
    models,
    notes: { activeNote: () => undefined, open: async () => {}, confine: async (path) => ({ absolute: path, display: path }), read: async () => '' },
    confirm: async () => true,
    settings: () => ({ enableMarkdown: true, lazyAgentSelection: false }),
    cwd: () => kiln,
    log: silentLogger,
  });
  // As the editor wires it: a switch from anywhere reaches the chat.
  selection.onDidChange(() => controller.modelChanged());
  return controller;
}

/** The messages of the last chat request the model received, system prompt left out, as role + text. */
function lastRequest(): { model: unknown; messages: { role: string; text: string }[] } {
  const body = server.wire.filter((w) => /chat\/completions|\/messages/.test(w.path)).at(-1)!.body as { model: unknown; messages: WireMessage[] };
  const text = (content: unknown) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((part) => (part as { text?: string }).text ?? '').join('') : '');
  return { model: body.model, messages: body.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, text: text(m.content) })) };
}

for (const type of ['cloud_a', 'cloud_b'] as LlmProviderType[]) {
  describe(`internal agent history on ${type}`, () => {
    test('after :model, the new session gets the earlier turns as user/assistant messages on the new model', async () => {
      const controller = chat(type, new MemoryStorage());
      await controller.handle({ type: 'send', text: 'KEY-first how do tomatoes grow?' });
      assert.equal(lastRequest().model, 'model-a');
      await controller.handle({ type: 'command', name: 'model', arg: 'mock/model-b' });
      await controller.handle({ type: 'send', text: 'KEY-second and water?' });
      const request = lastRequest();
      assert.equal(request.model, 'model-b');
      assert.deepEqual(request.messages, [
        { role: 'user', text: 'KEY-first how do tomatoes grow?' },
        { role: 'assistant', text: 'Tomatoes like sun.' },
        { role: 'user', text: 'KEY-second and water?' },
      ]);
      assert.ok(!request.messages.some((m) => m.text.includes('conversation so far')), 'no recap attachment');
      // The same session goes on with the whole conversation.
      await controller.handle({ type: 'send', text: 'KEY-third what grows beside them?' });
      assert.deepEqual(lastRequest().messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user']);
      await controller.dispose();
    });

    test('a config edit of the active model reaches the next turn and Retry, with the conversation kept', async () => {
      const config = mockConfig(type, server.url, 'model-a');
      const controller = chat(type, new MemoryStorage(), config);
      await controller.handle({ type: 'send', text: 'KEY-first how do tomatoes grow?' });
      assert.equal(lastRequest().model, 'model-a');
      // As the editor's config reload does: the snapshot changes, no switch event fires.
      config.llm.providers!.mock!.default_model = 'model-c';
      await controller.handle({ type: 'send', text: 'KEY-second and water?' });
      const request = lastRequest();
      assert.equal(request.model, 'model-c');
      assert.deepEqual(request.messages.map((m) => m.role), ['user', 'assistant', 'user']);
      config.llm.providers!.mock!.default_model = 'model-d';
      const lastTurn = posts.flatMap((m) => (m.type === 'turnStart' ? [m.turnId] : [])).at(-1)!;
      await controller.handle({ type: 'retry', turnId: lastTurn });
      assert.equal(lastRequest().model, 'model-d');
      await controller.dispose();
    });

    test('after a reload, a fresh controller seeds the restored conversation as messages', async () => {
      const storage = new MemoryStorage();
      const first = chat(type, storage);
      await first.handle({ type: 'send', text: 'KEY-first how do tomatoes grow?' });
      await first.dispose();
      const reloaded = chat(type, storage);
      await reloaded.handle({ type: 'send', text: 'KEY-second and water?' });
      assert.deepEqual(lastRequest().messages, [
        { role: 'user', text: 'KEY-first how do tomatoes grow?' },
        { role: 'assistant', text: 'Tomatoes like sun.' },
        { role: 'user', text: 'KEY-second and water?' },
      ]);
      await reloaded.dispose();
    });
  });
}
