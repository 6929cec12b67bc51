// The internal agent's tool loop through the real OpenAI and Anthropic SDKs against aimock, with
// the real kiln tools on a temp kiln: multi-step calls, tool errors, repeated calls, the step
// bound, permission (allow, deny, always), size-aware tool restriction, LLM errors, cancel.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startInternalAgent } from '../../../src/core/agents/internal/internalAgents';
import { BUILTIN_KILN_CARD } from '../../../src/core/agents/agentCards';
import type { LlmProviderType } from '../../../src/core/config/providerTypes';
import { closedPort, startMockLlm, type MockLlm } from '../llm/mockLlm';
import { agentDeps, collect, KILN_NOTES, lastMessageText, mockConfig, RecordingHost, tempDir, textOf, updates, writeFiles } from './helpers';

type Req = { messages: { role: string; content: unknown; tool_calls?: unknown[] }[]; tools?: { function?: { name: string }; name?: string }[] };

const TYPES: LlmProviderType[] = ['cloud_a', 'cloud_b'];
let server: MockLlm;

function mentions(req: Req, key: string): boolean {
  return req.messages.some((m) => m.role === 'user' && JSON.stringify(m.content).includes(key));
}
function toolResults(req: Req): number {
  return req.messages.filter((m) => m.role === 'tool').length;
}
function toolNames(req: Req): string[] {
  return (req.tools ?? []).map((t) => t.function?.name ?? t.name ?? '').sort();
}
function on(key: string, when: (req: Req) => boolean, response: Record<string, unknown>) {
  server.mock.on({ predicate: (req: Req) => mentions(req, key) && when(req) } as never, response as never);
}
function call(name: string, args: Record<string, unknown>, id: string) {
  return { toolCalls: [{ name, arguments: JSON.stringify(args), id }] };
}

before(async () => {
  server = await startMockLlm();
  // Multi-step: search, then read what the search found, then answer from it.
  on('KEY-bread', (r) => lastMessageText(r).includes('500 g flour'), { content: 'Bread needs 500 g flour.' });
  on('KEY-bread', (r) => toolResults(r) === 1 && lastMessageText(r).includes('recipes/bread.md'), call('read_note', { path: 'recipes/bread.md' }, 'c_read'));
  on('KEY-bread', (r) => toolResults(r) === 0, call('text_search', { query: 'bread' }, 'c_search'));
  // A tool error goes back to the model, which then answers.
  on('KEY-escape', (r) => toolResults(r) === 1, { content: 'That path is outside the kiln.' });
  on('KEY-escape', () => true, call('read_note', { path: '../../etc/passwd' }, 'c_escape'));
  // A model stuck on one call: the same arguments every step.
  on('KEY-loop', () => true, call('list_notes', { recursive: true }, 'c_loop'));
  // Writing tools: the answer depends on what the tool result says.
  on('KEY-delete', (r) => lastMessageText(r).includes('denied permission'), { content: 'Understood, I left old.md alone.' });
  on('KEY-delete', (r) => lastMessageText(r).includes('Deleted'), { content: 'Deleted it.' });
  on('KEY-delete', () => true, call('delete_note', { path: 'old.md' }, 'c_delete'));
  on('KEY-create', (r) => toolResults(r) === 2, { content: 'Created two notes.' });
  on('KEY-create', (r) => toolResults(r) === 1, call('create_note', { path: 'b.md', content: 'B' }, 'c_b'));
  on('KEY-create', () => true, call('create_note', { path: 'a.md', content: 'A' }, 'c_a'));
  on('KEY-badjson', (r) => toolResults(r) === 1, { content: 'Sorry.' });
  on('KEY-badjson', () => true, { toolCalls: [{ name: 'read_note', arguments: '{"path": "old.md"', id: 'c_bad' }] });
  on('KEY-tools', () => true, { content: 'I see the tools.' });
  on('KEY-slow', () => true, { content: 'one two three four five six seven eight nine ten eleven twelve thirteen' });
});
after(() => server.stop());

async function withKiln<T>(work: (kiln: string) => Promise<T>): Promise<T> {
  const { dir, cleanup } = await tempDir();
  try {
    await writeFiles(dir, KILN_NOTES);
    return await work(dir);
  } finally {
    await cleanup();
  }
}

for (const type of TYPES) {
  describe(`internal agent on ${type}`, () => {
    test('multi-step: search, read, answer — real kiln results reach the model', () =>
      withKiln(async (kiln) => {
        const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig(type, server.url, 'big-model'), kiln));
        const events = await collect(session.prompt('KEY-bread what do my notes say?'));
        assert.equal(textOf(events), 'Bread needs 500 g flour.');
        const calls = events.filter((e) => e.type === 'tool_call').map((e) => (e as { name: string }).name);
        assert.deepEqual(calls, ['text_search', 'read_note']);
        assert.deepEqual(updates(events).map((u) => u.status), ['completed', 'completed']);
        assert.match(updates(events)[1].result ?? '', /Bake at 230 C/);
        assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn' });
        assert.ok(events.some((e) => e.type === 'usage'));
        // The next turn carries the whole exchange: user, assistant+call, result ×2, answer.
        assert.deepEqual(session.messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
        await session.dispose();
      }));

    test('a failing tool is returned to the model, not thrown', () =>
      withKiln(async (kiln) => {
        const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig(type, server.url, 'big-model'), kiln));
        const events = await collect(session.prompt('KEY-escape read it'));
        const [update] = updates(events);
        assert.equal(update.status, 'failed');
        assert.equal(update.isError, true);
        assert.equal(textOf(events), 'That path is outside the kiln.');
        const result = session.messages.find((m) => m.role === 'tool');
        assert.ok(result && result.role === 'tool' && result.isError);
      }));

    test('the same call repeated: refused and told, then the turn is stopped', () =>
      withKiln(async (kiln) => {
        const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig(type, server.url, 'big-model'), kiln));
        const events = await collect(session.prompt('KEY-loop list everything'));
        assert.deepEqual(updates(events).map((u) => u.status), ['completed', 'failed', 'failed']);
        assert.match(updates(events)[1].result ?? '', /already called list_notes with exactly these arguments/);
        const error = events.find((e) => e.type === 'error');
        assert.equal(error && error.type === 'error' && error.code, 'agent.tool_loop');
        assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'error' });
        // The model was told before it was stopped: its third request carried the refusal.
        const sent = JSON.stringify(server.mock.getRequests().at(-1)?.body ?? {});
        assert.match(sent, /Not run: you already called list_notes/);
      }));

    test('the step bound ends a turn that never answers', () =>
      withKiln(async (kiln) => {
        const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig(type, server.url, 'big-model'), kiln, undefined, 1));
        const events = await collect(session.prompt('KEY-loop again'));
        assert.equal(events.find((e) => e.type === 'error' && e.code === 'agent.max_steps')?.type, 'error');
        assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'max_steps' });
      }));

    test('a writing tool asks first; a denial goes back to the model and the note stays', () =>
      withKiln(async (kiln) => {
        const host = new RecordingHost('reject_once');
        const session = await startInternalAgent(BUILTIN_KILN_CARD, { host, cwd: kiln }, agentDeps(mockConfig(type, server.url, 'big-model'), kiln));
        const events = await collect(session.prompt('KEY-delete remove old'));
        assert.equal(host.requests.length, 1);
        assert.equal(host.requests[0].toolCallId, 'c_delete');
        assert.match(host.requests[0].detail ?? '', /old\.md/);
        assert.deepEqual(host.requests[0].options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once']);
        assert.equal(updates(events)[0].status, 'denied');
        assert.equal(textOf(events), 'Understood, I left old.md alone.');
        assert.ok(existsSync(join(kiln, 'old.md')));

        // A closed prompt is a denial too.
        host.answer = 'cancelled';
        const again = await collect(session.prompt('KEY-delete remove old, really'));
        assert.equal(updates(again)[0].status, 'denied');
        assert.ok(existsSync(join(kiln, 'old.md')));

        host.answer = 'allow_once';
        const allowed = await collect(session.prompt('KEY-delete now you may'));
        assert.equal(updates(allowed)[0].status, 'completed');
        assert.equal(textOf(allowed), 'Deleted it.');
        assert.ok(!existsSync(join(kiln, 'old.md')));
      }));

    test('"always allow" is remembered for the session; confirm_destructive = false never asks', () =>
      withKiln(async (kiln) => {
        const host = new RecordingHost('allow_always');
        const session = await startInternalAgent(BUILTIN_KILN_CARD, { host, cwd: kiln }, agentDeps(mockConfig(type, server.url, 'big-model'), kiln));
        const events = await collect(session.prompt('KEY-create two notes'));
        assert.equal(textOf(events), 'Created two notes.');
        assert.equal(host.requests.length, 1, 'asked once for create_note, then remembered');
        assert.ok(existsSync(join(kiln, 'a.md')) && existsSync(join(kiln, 'b.md')));

        const quiet = new RecordingHost('reject_once');
        const config = mockConfig(type, server.url, 'big-model', { cli: { confirm_destructive: false } });
        const other = await startInternalAgent(BUILTIN_KILN_CARD, { host: quiet, cwd: kiln }, agentDeps(config, kiln));
        await collect(other.prompt('KEY-delete without asking'));
        assert.equal(quiet.requests.length, 0);
        assert.ok(!existsSync(join(kiln, 'old.md')));
      }));

    test('size-aware prompts: a 0.5 B model gets guidance and read-only tools; off, it gets all', () =>
      withKiln(async (kiln) => {
        const small = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig(type, server.url, 'qwen2.5:0.5b'), kiln));
        await collect(small.prompt('KEY-tools which tools?'));
        const req = server.mock.getRequests().at(-1)!.body as unknown as Req;
        const offered = toolNames(req);
        assert.deepEqual(offered, ['get_kiln_info', 'get_links', 'list_notes', 'property_search', 'read_metadata', 'read_note', 'related_notes', 'semantic_search', 'text_search', 'unlinked_mentions']);
        assert.match(JSON.stringify(req.messages), /How to use tools/);

        const off = mockConfig(type, server.url, 'qwen2.5:0.5b', { chat: { size_aware_prompts: false } });
        const full = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(off, kiln));
        await collect(full.prompt('KEY-tools which tools now?'));
        const req2 = server.mock.getRequests().at(-1)!.body as unknown as Req;
        assert.ok(toolNames(req2).includes('delete_note'));
        assert.doesNotMatch(JSON.stringify(req2.messages), /How to use tools/);
      }));

    test('a card limits the tools and sets the model', () =>
      withKiln(async (kiln) => {
        const card = { ...BUILTIN_KILN_CARD, name: 'reader', tools: ['read_*', 'list_notes'], model: 'mock/card-model' };
        const session = await startInternalAgent(card, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig(type, server.url, 'big-model'), kiln));
        await collect(session.prompt('KEY-tools card tools?'));
        const req = server.mock.getRequests().at(-1)!.body as unknown as Req & { model: string };
        assert.deepEqual(toolNames(req), ['list_notes', 'read_metadata', 'read_note']);
        assert.equal(req.model, 'card-model');
      }));

    test('an unreachable provider is an error event with a remedy, not a throw', () =>
      withKiln(async (kiln) => {
        const port = await closedPort();
        const config = mockConfig(type, `http://127.0.0.1:${port}`, 'big-model');
        const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(config, kiln));
        const events = await collect(session.prompt('KEY-tools hello'));
        const error = events.find((e) => e.type === 'error');
        assert.ok(error && error.type === 'error');
        assert.equal(error.code, 'llm.unreachable');
        assert.ok(error.remedy);
        assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'error' });
      }));
  });
}

test('arguments that are not valid JSON are not run; the model is told', () =>
  withKiln(async (kiln) => {
    const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig('cloud_a', server.url, 'big-model'), kiln));
    const events = await collect(session.prompt('KEY-badjson read it'));
    assert.equal(updates(events)[0].status, 'failed');
    assert.match(updates(events)[0].result ?? '', /not valid JSON/);
    assert.equal(textOf(events), 'Sorry.');
  }));

test('aborting the signal cancels the turn', () =>
  withKiln(async (kiln) => {
    server.mock.on({ userMessage: 'KEY-slower' }, { content: 'one two three four five six seven eight nine ten' }, { latency: 40, chunkSize: 3 });
    const session = await startInternalAgent(BUILTIN_KILN_CARD, { host: new RecordingHost(), cwd: kiln }, agentDeps(mockConfig('cloud_a', server.url, 'big-model'), kiln));
    const controller = new AbortController();
    const events = [];
    for await (const event of session.prompt('KEY-slower please', [], controller.signal)) {
      events.push(event);
      if (event.type === 'text') controller.abort();
    }
    assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled' });
    assert.ok(textOf(events).length < 'one two three four five six seven eight nine ten'.length);
  }));
