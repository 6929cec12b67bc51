// `@hearth /agent NAME TASK` without an editor, on real parts: the agent catalog with the built-in
// internal `kiln` agent on aimock and ACP agents from the scripted SDK peer. The task runs, tool
// calls show as progress, the agent's edit is reviewed and journaled (undone byte for byte); a
// missing task lists the agents; an unknown, unavailable or untrusted agent, an unreachable
// provider and a cancelled turn each end with an outcome the Chat view can show — never a throw.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAgentCatalog } from '../../../../src/core/agents/agentSetup';
import type { ExternalAgents } from '../../../../src/core/agents/externalAgents';
import { confinedKilnFiles } from '../../../../src/core/changes/kilnFileAccess';
import type { ChangeProposal } from '../../../../src/core/changes/changeReview';
import { applyUndo, newestTurn, planUndo } from '../../../../src/core/changes/undoChanges';
import { AgentProgress, MAX_PROGRESS_LINES, runParticipantAgent, type ParticipantAgentDeps, type ParticipantReply } from '../../../../src/core/chat/participant/participantAgentTurn';
import type { HearthConfig } from '../../../../src/core/config/schema';
import { silentLogger } from '../../../../src/core/host';
import { kilnToolContext } from '../../../../src/core/kiln/tools/kilnToolContext';
import { closedPort, GOOD_KEY, startMockLlm, type MockLlm } from '../../llm/mockLlm';
import { createAgents, fixtureProfile } from '../../agents/acp/helpers';
import { agentDeps, KILN_NOTES, lastMessageText, mockConfig, RecordingHost, tempDir, writeFiles } from '../../agents/helpers';

let server: MockLlm;
let kiln: string;
let cleanup: () => Promise<void>;
const BREAD = KILN_NOTES['recipes/bread.md']!;

before(async () => {
  server = await startMockLlm();
  type Req = { messages: { role: string; content: unknown }[] };
  const on = (when: (req: Req) => boolean, response: Record<string, unknown>, options: Record<string, unknown> = {}) => server.mock.on({ predicate: when } as never, response as never, options as never);
  const asked = (req: Req, key: string) => JSON.stringify(req.messages).includes(key);
  const toolResults = (req: Req) => req.messages.filter((m) => m.role === 'tool').length;
  on((r) => asked(r, 'KEY-edit') && toolResults(r) > 0, { content: 'Updated recipes/bread.md:1 as asked.' });
  on((r) => asked(r, 'KEY-edit'), { toolCalls: [{ id: 'c1', name: 'update_note', arguments: JSON.stringify({ path: 'recipes/bread.md', content: '# Bread\n\nSourdough only.\n' }) }] });
  on((r) => lastMessageText(r).includes('KEY-slow'), { content: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ') }, { latency: 30, chunkSize: 4 });
  on(() => true, { content: 'Done.' });
  const made = await tempDir('hearth-participant-agent-');
  kiln = made.dir;
  cleanup = made.cleanup;
  await writeFiles(kiln, KILN_NOTES);
});
after(async () => {
  await server.stop();
  await cleanup();
});

/** A reply that records what the Chat view would show. */
class RecordingReply implements ParticipantReply {
  readonly progressLines: string[] = [];
  readonly markdownText: string[] = [];
  text = '';
  ended = false;
  onWrite: (() => void) | undefined;
  progress(text: string): void {
    this.progressLines.push(text);
  }
  markdown(text: string): void {
    this.markdownText.push(text);
  }
  async write(text: string): Promise<void> {
    this.text += text;
    this.onWrite?.();
  }
  async end(): Promise<void> {
    this.ended = true;
  }
}

function setup(options: { config?: HearthConfig; external?: ExternalAgents; untrusted?: string } = {}) {
  const config = options.config ?? mockConfig('cloud_a', server.url, 'big-model', { chat: { review_edits: 'always' } });
  const reviewed: ChangeProposal[] = [];
  const context = kilnToolContext(config, { log: silentLogger, confirm: async () => true }, kiln, undefined, {
    review: async (proposal) => (reviewed.push(proposal), { accepted: true }),
  });
  const base = agentDeps(config, kiln);
  const catalog = createAgentCatalog({
    config: () => config,
    runtime: base.runtime,
    kilnContext: context,
    external: options.external,
    globalConfigDir: join(kiln, 'no-global'),
    workspaceRoot: kiln,
    untrustedReason: () => options.untrusted,
    log: silentLogger,
  });
  const host = new RecordingHost('allow_once');
  const deps: ParticipantAgentDeps = { catalog, kilnRoot: kiln, workspaceRoot: kiln, host, redact: (text) => text.replaceAll(GOOD_KEY, '[redacted]'), log: silentLogger };
  return { deps, reviewed, context, host };
}

describe('/agent', () => {
  test('kiln runs the task: the tool call shows as progress, the edit is reviewed and journaled, undo restores the note byte for byte', async () => {
    const { deps, reviewed, context } = setup();
    const reply = new RecordingReply();
    const outcome = await runParticipantAgent('kiln KEY-edit make the bread note sourdough only', reply, new AbortController().signal, deps);
    assert.deepEqual(outcome, { metadata: { command: 'agent', agent: 'kiln' } });
    assert.equal(reply.progressLines[0], 'Starting kiln…');
    assert.ok(reply.progressLines.some((line) => /update/i.test(line) && line.endsWith('…')), reply.progressLines.join('\n'));
    assert.equal(reply.text, 'Updated recipes/bread.md:1 as asked.');
    assert.ok(reply.ended);
    // Reviewed, written, journaled as one turn of the agent; undone byte for byte.
    assert.deepEqual(reviewed.map((p) => [p.path, p.actor.tool]), [['recipes/bread.md', 'update_note']]);
    // update_note keeps the frontmatter when only the content changes.
    assert.equal(readFileSync(join(kiln, 'recipes/bread.md'), 'utf8'), '---\ntags: [baking]\n---\n# Bread\n\nSourdough only.\n');
    const journal = context.journal!;
    const turn = newestTurn(await journal.list());
    assert.deepEqual(turn.map((r) => r.path), ['recipes/bread.md']);
    const files = confinedKilnFiles(kiln);
    await applyUndo(journal, files, await planUndo(journal, files, turn));
    assert.equal(readFileSync(join(kiln, 'recipes/bread.md'), 'utf8'), BREAD);
  });

  test('no task: the usage and the agents are shown, nothing runs and nothing fails', async () => {
    const { deps } = setup({ external: createAgents({ profiles: { scripted: fixtureProfile() } }).agents });
    const seen = server.requests.length;
    for (const prompt of ['', '   ', 'kiln']) {
      const reply = new RecordingReply();
      const outcome = await runParticipantAgent(prompt, reply, new AbortController().signal, deps);
      assert.deepEqual(outcome, { metadata: { command: 'agent' } });
      assert.match(reply.markdownText.join(''), /@hearth \/agent kiln [\s\S]*- `kiln` \(internal\)[\s\S]*- `scripted` \(external\)/);
    }
    assert.equal(server.requests.length, seen, 'no model was asked');
  });

  test('an unknown agent, a missing one and an external agent in Restricted Mode are refused with the reason; none starts', async () => {
    const external = createAgents({ profiles: { ghost: { command: join(kiln, 'no-such-agent') }, scripted: fixtureProfile() } }).agents;
    const { deps } = setup({ external, untrusted: 'external agents run only in trusted folders' });
    const unknown = await runParticipantAgent(`${'x'.repeat(5000)} do it`, new RecordingReply(), new AbortController().signal, deps);
    assert.match(unknown.error ?? '', /^No agent named "x{60}…"\. Agents:\n- `kiln` \(internal\)/);
    assert.ok(unknown.error!.length < 1000, 'a huge name is not echoed whole');
    const ghost = await runParticipantAgent('ghost tidy up', new RecordingReply(), new AbortController().signal, deps);
    assert.match(ghost.error ?? '', /The agent "ghost" is not available: .*trusted folders/);
    const reply = new RecordingReply();
    const scripted = await runParticipantAgent('scripted tidy up', reply, new AbortController().signal, deps);
    assert.match(scripted.error ?? '', /The agent "scripted" is not available: external agents run only in trusted folders/);
    assert.deepEqual(reply.progressLines, [], 'nothing started');
  });

  test('no folder open, or no catalog: said plainly', async () => {
    const { deps } = setup();
    const noFolder = await runParticipantAgent('kiln tidy up', new RecordingReply(), new AbortController().signal, { ...deps, kilnRoot: undefined, workspaceRoot: undefined });
    assert.match(noFolder.error ?? '', /Open a folder first/);
    const noCatalog = await runParticipantAgent('kiln tidy up', new RecordingReply(), new AbortController().signal, { ...deps, catalog: undefined });
    assert.match(noCatalog.error ?? '', /agents did not start/);
  });

  test('an unreachable provider: the turn ends with the provider\'s error and its remedy, no throw, no key', async () => {
    const port = await closedPort();
    const { deps } = setup({ config: mockConfig('cloud_a', `http://127.0.0.1:${port}`, 'big-model') });
    const reply = new RecordingReply();
    const outcome = await runParticipantAgent('kiln KEY-unreachable what is in my notes?', reply, new AbortController().signal, deps);
    assert.equal(outcome.metadata.agent, 'kiln');
    assert.ok(outcome.error, 'the failure is an error for the Chat view');
    assert.match(outcome.error, /127\.0\.0\.1|reach|connect/i);
    assert.doesNotMatch(outcome.error, new RegExp(GOOD_KEY));
  });

  test('cancelled mid-stream: the turn stops, ends quietly as cancelled, and the model stream is dropped', async () => {
    const { deps } = setup();
    const reply = new RecordingReply();
    const abort = new AbortController();
    reply.onWrite = () => abort.abort();
    const outcome = await runParticipantAgent('kiln KEY-slow tell me everything', reply, abort.signal, deps);
    assert.deepEqual(outcome, { metadata: { command: 'agent', agent: 'kiln', cancelled: true } });
    assert.ok(reply.text.length > 0 && !reply.text.includes('word199'), `stopped early: ${reply.text.length} characters`);
    // Cancelled before it started: nothing runs.
    const before = server.requests.length;
    const early = await runParticipantAgent('kiln KEY-slow again', new RecordingReply(), AbortSignal.abort(), deps);
    assert.equal(early.metadata.cancelled, true);
    assert.equal(server.requests.length, before);
  });
});

describe('progress', () => {
  test('tool calls by title on one line, rejections and failures said, the plan with its states; a flood of calls is capped', () => {
    const progress = new AgentProgress();
    assert.equal(progress.line({ type: 'tool_call', id: '1', name: 'read_note', title: 'Read\nnote  a.md', status: 'pending' }), 'Read note a.md…');
    assert.equal(progress.line({ type: 'tool_update', id: '1', status: 'failed', code: 'changes.rejected' }), 'a change was rejected');
    assert.equal(progress.line({ type: 'tool_update', id: '1', status: 'failed' }), 'a tool call was unsuccessful');
    assert.equal(progress.line({ type: 'tool_update', id: '1', status: 'completed' }), undefined);
    assert.equal(
      progress.line({ type: 'plan', entries: [{ content: 'read', status: 'completed' }, { content: 'write', status: 'in_progress' }, { content: 'check', status: 'pending' }] }),
      'Plan: ✓ read; … write; · check',
    );
    const lines = Array.from({ length: MAX_PROGRESS_LINES + 20 }, (_, i) => progress.line({ type: 'tool_call', id: String(i), name: 'x'.repeat(500), status: 'pending' }));
    assert.equal(lines.filter((l) => l !== undefined).length, MAX_PROGRESS_LINES);
    assert.ok(lines.every((l) => l === undefined || l.length <= 125));
  });
});
