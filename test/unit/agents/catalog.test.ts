// The agent catalog over real parts: cards on disk, internal sessions on aimock, external agents
// from the ACP side (profiles running the project's scripted ACP agent); default selection by
// default_agent and agent_preference; transcripts of both kinds surviving a "restart".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAgentCatalog, transcriptDir } from '../../../src/core/agents/agentSetup';
import { AgentError } from '../../../src/core/agents/agentErrors';
import { TranscriptStore } from '../../../src/core/agents/transcripts';
import type { ExternalAgents } from '../../../src/core/agents/externalAgents';
import { silentLogger } from '../../../src/core/host';
import { startMockLlm, type MockLlm } from '../llm/mockLlm';
import { createAgents, fixtureProfile, RecordingLog } from './acp/helpers';
import { agentDeps, collect, KILN_NOTES, mockConfig, RecordingHost, tempDir, textOf, writeFiles } from './helpers';

let server: MockLlm;
let kiln: string;
let cleanup: () => Promise<void>;

before(async () => {
  server = await startMockLlm();
  server.mock.on({ userMessage: 'KEY-hello' }, { content: 'Hello from the kiln agent.' }, { chunkSize: 3 });
  const made = await tempDir();
  kiln = made.dir;
  cleanup = made.cleanup;
  await writeFiles(kiln, {
    ...KILN_NOTES,
    'agents/writer.md': '---\nname: writer\ndescription: Writes notes\n---\nYou write.',
    'agents/broken.md': '---\nname: broken\n---\nno description',
  });
});
after(async () => {
  await server.stop();
  await cleanup();
});

function catalogFor(options: { acp?: Record<string, unknown>; chat?: Record<string, unknown>; external?: ExternalAgents; log?: RecordingLog; storage?: string; untrusted?: string } = {}) {
  const config = mockConfig('cloud_a', server.url, 'big-model', { acp: options.acp ?? {}, chat: options.chat ?? {} });
  const deps = agentDeps(config, kiln);
  return createAgentCatalog({
    config: () => config,
    runtime: deps.runtime,
    kilnContext: deps.kilnContext,
    external: options.external,
    globalConfigDir: join(kiln, 'no-global'),
    workspaceRoot: kiln,
    storageDir: options.storage,
    untrustedReason: () => options.untrusted,
    log: options.log ?? silentLogger,
  });
}

test('untrusted folder: no external agent is available or starts; agent_preference "acp" falls back to kiln and says why', async () => {
  const external = acpAgents();
  const reason = 'external agents run only in trusted folders';
  const log = new RecordingLog();
  const catalog = catalogFor({ external, untrusted: reason, log });
  const agents = await catalog.list();
  assert.deepEqual(agents.filter((a) => a.kind === 'external').map((a) => [a.name, a.available, a.unavailableReason]), [
    ['ghost', false, reason],
    ['scripted', false, reason],
  ]);
  assert.equal(await catalog.defaultAgent(), 'kiln');
  assert.match(await catalog.trustFallback() ?? '', /agent_preference "acp": external agents run only in trusted folders; using the internal agent "kiln"/);
  await assert.rejects(catalog.start('scripted', { host: new RecordingHost(), cwd: kiln }), (error: unknown) => error instanceof AgentError && error.code === 'agent.unavailable');
  // Trusted (or preferring internal agents): no fallback to explain.
  assert.equal(await catalogFor({ external }).trustFallback(), undefined);
  assert.equal(await catalogFor({ external, untrusted: reason, chat: { agent_preference: 'internal' } }).trustFallback(), undefined);
});

function acpAgents() {
  return createAgents({ profiles: { ghost: { command: join(kiln, 'no-such-agent') }, scripted: fixtureProfile() } }).agents;
}

test('list: the built-in, the cards, and external agents with availability; invalid cards reported', async () => {
  const catalog = catalogFor({ external: acpAgents() });
  const agents = await catalog.list();
  assert.deepEqual(
    agents.map((a) => [a.name, a.kind, a.available]),
    [
      ['kiln', 'internal', true],
      ['writer', 'internal', true],
      ['ghost', 'external', false],
      ['scripted', 'external', true],
    ],
  );
  assert.match(agents[2].unavailableReason ?? '', /does not exist/);
  const problems = await catalog.cardProblems();
  assert.deepEqual(problems.map((p) => p.file), [join(kiln, 'agents/broken.md')]);
});

test('defaultAgent: default_agent when it can run, else agent_preference', async () => {
  const external = acpAgents();
  assert.equal(await catalogFor({ external }).defaultAgent(), 'scripted', 'acp preference: the first available external agent');
  assert.equal(await catalogFor({ external, chat: { agent_preference: 'internal' } }).defaultAgent(), 'kiln');
  assert.equal(await catalogFor({ external, acp: { default_agent: 'writer' } }).defaultAgent(), 'writer');
  assert.equal(await catalogFor({ external, acp: { default_agent: 'scripted' }, chat: { agent_preference: 'internal' } }).defaultAgent(), 'scripted');
  const log = new RecordingLog();
  assert.equal(await catalogFor({ external, acp: { default_agent: 'ghost' }, chat: { agent_preference: 'internal' }, log }).defaultAgent(), 'kiln');
  assert.ok(log.lines.some((line) => /default_agent "ghost" is not available/.test(line)));
  assert.equal(await catalogFor({ external, acp: { default_agent: 'nobody' } }).defaultAgent(), 'scripted');
  // acp preferred but none available, or no ACP side at all: the built-in agent.
  const none = createAgents({ profiles: { ghost: { command: join(kiln, 'no-such-agent') } } }).agents;
  assert.equal(await catalogFor({ external: none }).defaultAgent(), 'kiln');
  assert.equal(await catalogFor().defaultAgent(), 'kiln');
});

test('an external side that fails to list does not hide the internal agents', async () => {
  const log = new RecordingLog();
  const failing: ExternalAgents = {
    list: async () => {
      throw new Error('PATH scan exploded');
    },
    start: async () => {
      throw new Error('unreachable');
    },
  };
  const catalog = catalogFor({ external: failing, log });
  assert.deepEqual((await catalog.list()).map((a) => a.name), ['kiln', 'writer']);
  assert.ok(log.lines.some((line) => /PATH scan exploded/.test(line)));
});

test('start: unknown and unavailable agents are typed errors', async () => {
  const catalog = catalogFor({ external: acpAgents() });
  await assert.rejects(catalog.start('nobody', { host: new RecordingHost(), cwd: kiln }), (e) => e instanceof AgentError && e.code === 'agent.unknown');
  await assert.rejects(catalog.start('ghost', { host: new RecordingHost(), cwd: kiln }), (e) => e instanceof AgentError && e.code === 'agent.unavailable');
});

test('transcripts of internal and external sessions survive a restart and are listable', async () => {
  const { dir: storage, cleanup: done } = await tempDir('hearth-storage-');
  const external = acpAgents();
  try {
    const catalog = catalogFor({ external, storage });
    const internal = await catalog.start('kiln', { host: new RecordingHost(), cwd: kiln });
    const first = await collect(internal.prompt('KEY-hello there'));
    assert.equal(textOf(first), 'Hello from the kiln agent.');
    await internal.dispose();

    const acp = await catalog.start('scripted', { host: new RecordingHost(), cwd: kiln });
    const echoed = await collect(acp.prompt('echo one two three', [{ path: 'old.md', text: 'An outdated note.' }]));
    assert.equal(echoed.at(-1)?.type, 'done');
    await acp.dispose();

    // A new store on the same directory: what a restarted editor sees.
    const store = new TranscriptStore(transcriptDir(storage), silentLogger);
    const list = await store.list();
    assert.deepEqual(list.map((t) => [t.agent, t.kind, t.title, t.prompts]).sort(), [
      ['kiln', 'internal', 'KEY-hello there', 1],
      ['scripted', 'external', 'echo one two three', 1],
    ]);
    const kilnTranscript = await store.read(list.find((t) => t.agent === 'kiln')!.id);
    // Streamed chunks are joined into one line.
    assert.deepEqual(
      kilnTranscript.filter((e) => e.type === 'event' && e.event.type === 'text').map((e) => (e.type === 'event' && e.event.type === 'text' ? e.event.text : '')),
      ['Hello from the kiln agent.'],
    );
    const last = kilnTranscript.at(-1);
    assert.deepEqual(last?.type === 'event' ? last.event : last, { type: 'done', stopReason: 'end_turn' });
    const acpId = list.find((t) => t.agent === 'scripted')!.id;
    const acpTranscript = await store.read(acpId);
    const kinds: string[] = acpTranscript.map((e) => (e.type === 'event' ? e.event.type : e.type));
    assert.deepEqual(kinds.slice(0, 2), ['session', 'prompt']);
    for (const kind of ['thought', 'plan', 'tool_call', 'tool_update', 'text', 'done']) assert.ok(kinds.includes(kind), `${kind} recorded`);
    const prompt = acpTranscript[1];
    assert.ok(prompt.type === 'prompt' && prompt.attachments?.[0].path === 'old.md');

    // A torn last line (a crash mid-append) does not lose the rest.
    await appendFile(join(transcriptDir(storage), `${acpId}.jsonl`), '{"type":"event","at":"2026-');
    assert.equal((await store.read(acpId)).length, acpTranscript.length);
    await assert.rejects(store.read('../../etc/passwd'));
  } finally {
    await external.dispose();
    await done();
  }
});
