import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { defaultConfig } from '../../../src/core/config/schema';
import { Gateway } from '../../../src/core/gateway/gateway';
import { createGatewayServer } from '../../../src/core/gateway/gatewayServer';
import { kilnToolContext } from '../../../src/core/kiln/tools/kilnToolContext';
import { testGatewayOptions } from '../gateway/helpers';
import { ChangeJournal } from '../../../src/core/changes/changeJournal';
import type { ChangeProposal, ChangeReviewer, ReviewOutcome, ReviewPolicy } from '../../../src/core/changes/changeReview';
import { confinedKilnFiles } from '../../../src/core/changes/kilnFileAccess';
import { silentLogger } from '../../../src/core/host';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { terminalReviewer } from '../../../src/cli/terminalReview';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const text = (result: CallToolResult) => (result.content as { text: string }[]).map((part) => part.text).join('\n');

function setup(policy: ReviewPolicy, decide: (proposal: ChangeProposal) => ReviewOutcome, confirmAnswer = true) {
  const root = mkdtempSync(join(tmpdir(), 'hearth-review-'));
  dirs.push(root);
  writeFileSync(join(root, 'a.md'), '# A\nold body\n');
  const seen: ChangeProposal[] = [];
  const confirms: string[] = [];
  const reviewer: ChangeReviewer = { review: async (proposal) => (seen.push(proposal), decide(proposal)) };
  const journal = new ChangeJournal({ kilnRoot: root, files: confinedKilnFiles(root), log: silentLogger, keepDays: 30, maxMb: 100 });
  const tools = new Map(
    createKilnTools({
      kilnRoot: root,
      host: { log: silentLogger, confirm: async (message) => (confirms.push(message), confirmAnswer) },
      confirmDestructive: true,
      journal,
      reviewer,
      reviewEdits: policy,
    }).map((tool) => [tool.name, tool]),
  );
  const call = (name: string, args: unknown) => tools.get(name)!.call(args, undefined, { turn: 'turn-1', agent: 'kiln' });
  return { root, seen, confirms, call, journal };
}

test('review_edits = always: every write is one diff review; accepted applies and is journaled, rejected leaves the note byte-identical and tells the agent why', async () => {
  const accept = setup('always', () => ({ accepted: true }));
  assert.equal((await accept.call('update_note', { path: 'a.md', content: 'new body\n' })).isError, undefined);
  assert.equal(readFileSync(join(accept.root, 'a.md'), 'utf8'), 'new body\n');
  assert.deepEqual(accept.seen.map((proposal) => [proposal.path, proposal.kind, proposal.actor.agent, proposal.actor.turn]), [['a.md', 'update', 'kiln', 'turn-1']]);
  // One question: the review replaces the yes/no confirmation.
  assert.deepEqual(accept.confirms, []);
  assert.equal((await accept.journal.list()).length, 1);

  const reject = setup('always', () => ({ accepted: false, reason: 'keep the heading' }));
  const before = readFileSync(join(reject.root, 'a.md'));
  const result = await reject.call('update_note', { path: 'a.md', content: 'new body\n' });
  assert.equal(result.isError, true);
  assert.match(text(result), /The user rejected the change to a\.md: keep the heading/);
  assert.deepEqual(readFileSync(join(reject.root, 'a.md')), before);
  assert.equal((await reject.call('create_note', { path: 'b.md', content: 'x' })).isError, true);
  assert.equal(existsSync(join(reject.root, 'b.md')), false);
  assert.deepEqual(await reject.journal.list(), []);
});

test('review_edits = destructive: new notes go through, overwrites and deletes are reviewed', async () => {
  const run = setup('destructive', () => ({ accepted: false }));
  assert.equal((await run.call('create_note', { path: 'b.md', content: 'x' })).isError, undefined);
  assert.equal((await run.call('delete_note', { path: 'a.md' })).isError, true);
  assert.deepEqual(run.seen.map((proposal) => proposal.kind), ['delete']);
  assert.ok(existsSync(join(run.root, 'a.md')));
});

test('review_edits = never: nothing is reviewed, but confirm_destructive still guards deletes', async () => {
  const run = setup('never', () => assert.fail('never reviewed'), false);
  const result = await run.call('delete_note', { path: 'a.md' });
  assert.equal(result.isError, true);
  assert.match(text(result), /declined/);
  assert.deepEqual(run.confirms, ['Delete the note "a.md"?']);
  assert.ok(existsSync(join(run.root, 'a.md')));
});

function terminal(answer: string | undefined, options: { yes?: boolean; interactive?: boolean }) {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let shown = '';
  stderr.on('data', (chunk) => (shown += chunk));
  if (answer !== undefined) stdin.end(answer);
  const reviewer = terminalReviewer({ stdin, stderr, yes: options.yes ?? false, interactive: options.interactive });
  const proposal: ChangeProposal = { path: 'a.md', kind: 'update', before: Buffer.from('one\ntwo\n'), after: Buffer.from('one\nthree\n'), actor: { turn: 't', tool: 'update_note', agent: 'kiln' } };
  return reviewer.review(proposal).then((outcome) => ({ outcome, shown }));
}

test('the terminal reviewer prints a unified diff; y accepts, anything else rejects (with the reason typed); no terminal rejects; --yes accepts', async () => {
  const yes = await terminal('y\n', { interactive: true });
  assert.deepEqual(yes.outcome, { accepted: true });
  assert.match(yes.shown, /--- a\/a\.md\n\+\+\+ b\/a\.md\n@@ -1,2 \+1,2 @@\n one\n-two\n\+three\n/);
  assert.deepEqual((await terminal('please keep two\n', { interactive: true })).outcome, { accepted: false, reason: 'please keep two' });
  assert.deepEqual((await terminal('n\n', { interactive: true })).outcome, { accepted: false, reason: undefined });
  assert.equal((await terminal('', { interactive: true })).outcome.accepted, false);
  const piped = await terminal('y\n', {});
  assert.equal(piped.outcome.accepted, false);
  assert.match(piped.shown, /no terminal to ask; pass --yes/);
  assert.deepEqual((await terminal(undefined, { yes: true })).outcome, { accepted: true });
});

test('an MCP client of the gateway (as the editor serves it) has its edit staged for review under its own name', async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-review-gw-'));
  dirs.push(root);
  writeFileSync(join(root, 'a.md'), 'before\n');
  const seen: ChangeProposal[] = [];
  const reviewer: ChangeReviewer = { review: async (proposal) => (seen.push(proposal), { accepted: false, reason: 'not now' }) };
  const config = defaultConfig();
  const tools = createKilnTools(kilnToolContext(config, { log: silentLogger, confirm: async () => true }, root, undefined, reviewer));
  const gateway = new Gateway(testGatewayOptions());
  const session = createGatewayServer({ gateway, kilnTools: tools, log: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: 'claude-code', version: '2.0.0' });
  await client.connect(clientSide);
  try {
    const result = (await client.callTool({ name: 'update_note', arguments: { path: 'a.md', content: 'after\n' } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(text(result), /rejected the change to a\.md: not now/);
    assert.deepEqual(seen.map((proposal) => [proposal.path, proposal.actor.client, proposal.actor.tool, proposal.actor.turn.startsWith('mcp-')]), [['a.md', 'claude-code', 'update_note', true]]);
    assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'before\n');
  } finally {
    await client.close();
    session.dispose();
    await gateway.dispose();
  }
});

test('a user save while the change waits for review wins: accepting then refuses the stale change, the save is kept', async () => {
  let release: (outcome: ReviewOutcome) => void = () => {};
  let reviewing: () => void = () => {};
  const underReview = new Promise<void>((done) => (reviewing = done));
  const run = setup('always', () => ({ accepted: true }));
  const reviewer: ChangeReviewer = { review: () => new Promise((done) => ((release = done), reviewing())) };
  const tools = createKilnTools({ kilnRoot: run.root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: true, journal: run.journal, reviewer, reviewEdits: 'always' });
  const pending = tools.find((tool) => tool.name === 'update_note')!.call({ path: 'a.md', content: 'agent text\n' });
  await underReview;
  writeFileSync(join(run.root, 'a.md'), 'saved by the user\n');
  release({ accepted: true });
  const result = await pending;
  assert.equal(result.isError, true);
  assert.match(text(result), /a\.md changed while this change waited/);
  assert.equal(readFileSync(join(run.root, 'a.md'), 'utf8'), 'saved by the user\n');
});
