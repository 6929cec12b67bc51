// Internal agents with a reviewer ([chat].review_edits): the review is the one question, the edits
// of one step reach the reviewer together (one multi-file review), and a rejection reaches the model.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BUILTIN_KILN_CARD } from '../../../src/core/agents/agentCards';
import { startInternalAgent } from '../../../src/core/agents/internal/internalAgents';
import type { ChangeProposal, ChangeReviewer, ReviewOutcome } from '../../../src/core/changes/changeReview';
import { startMockLlm, type MockLlm } from '../llm/mockLlm';
import { agentDeps, collect, KILN_NOTES, lastMessageText, mockConfig, RecordingHost, tempDir, textOf, updates, writeFiles } from './helpers';

let server: MockLlm;
type Req = { messages: { role: string; content: unknown }[] };
const toolResults = (req: Req) => req.messages.filter((m) => m.role === 'tool').length;

before(async () => {
  server = await startMockLlm();
  const on = (when: (req: Req) => boolean, response: Record<string, unknown>) => server.mock.on({ predicate: when } as never, response as never);
  const mentions = (req: Req, key: string) => JSON.stringify(req.messages).includes(key);
  on((r) => mentions(r, 'KEY-three') && toolResults(r) === 3 && lastMessageText(r).includes('rejected the change to c.md: not c'), { content: 'Two written, c.md rejected.' });
  on((r) => mentions(r, 'KEY-three'), {
    toolCalls: ['a', 'b', 'c'].map((name) => ({ id: `c_${name}`, name: 'create_note', arguments: JSON.stringify({ path: `${name}.md`, content: `# ${name}\n` }) })),
  });
});
after(() => server.stop());

test('one step writing three notes: three reviews pending at once, no permission prompt, the rejection told to the model', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    await writeFiles(dir, KILN_NOTES);
    let waiting: { proposal: ChangeProposal; decide: (outcome: ReviewOutcome) => void }[] = [];
    let mostAtOnce = 0;
    const reviewer: ChangeReviewer = {
      review: (proposal) =>
        new Promise((decide) => {
          waiting.push({ proposal, decide });
          mostAtOnce = Math.max(mostAtOnce, waiting.length);
          // Decide once the whole step is pending; if the writes came one by one (the bug), a
          // fallback lets each through after a while so the test fails on the count instead of hanging.
          const decideAll = () => {
            for (const item of waiting) item.decide(item.proposal.path === 'c.md' ? { accepted: false, reason: 'not c' } : { accepted: true });
            waiting = [];
          };
          if (waiting.length === 3) decideAll();
          else setTimeout(() => waiting.includes(waiting.find((item) => item.proposal === proposal)!) && decideAll(), 5_000).unref();
        }),
    };
    const deps = agentDeps(mockConfig('cloud_a', server.url, 'big-model'), dir);
    deps.kilnContext = { ...deps.kilnContext, reviewer, reviewEdits: 'always' };
    const host = new RecordingHost('reject_once');
    const session = await startInternalAgent(BUILTIN_KILN_CARD, { host, cwd: dir }, deps);
    const events = await collect(session.prompt('KEY-three write three notes'));
    assert.equal(mostAtOnce, 3, 'the three reviews were pending together');
    assert.deepEqual(host.requests, [], 'the review is the only question');
    assert.deepEqual(updates(events).map((u) => u.status), ['completed', 'completed', 'failed']);
    assert.equal(textOf(events), 'Two written, c.md rejected.');
    assert.equal(await readFile(join(dir, 'a.md'), 'utf8'), '# a\n');
    await assert.rejects(readFile(join(dir, 'c.md')));
    await session.dispose();
  } finally {
    await cleanup();
  }
});
