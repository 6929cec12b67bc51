// ACP fs/write_text_file with [chat].review_edits: a write to an existing file is a diff review
// (not a yes/no prompt), a new file shows as an addition, the outcome reaches the agent, and
// accepted writes inside the kiln are journaled under the agent's turn (undoable).
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { AgentSession } from '../../../../src/core/agents/agentSession';
import { ChangeJournal } from '../../../../src/core/changes/changeJournal';
import type { ChangeProposal, ReviewOutcome } from '../../../../src/core/changes/changeReview';
import { confinedKilnFiles } from '../../../../src/core/changes/kilnFileAccess';
import { applyUndo, newestTurn, planUndo } from '../../../../src/core/changes/undoChanges';
import { silentLogger } from '../../../../src/core/host';
import { collect, createAgents, ScriptedHost, tempWorkspace, textOf } from './helpers';

let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
let session: AgentSession;
let journal: ChangeJournal;
const host = new ScriptedHost();
const proposals: ChangeProposal[] = [];
let decide: (proposal: ChangeProposal) => ReviewOutcome = () => ({ accepted: true });
const ask = async (prompt: string) => textOf(await collect(session.prompt(prompt)));

before(async () => {
  workspace = await tempWorkspace();
  const kiln = join(workspace.dir, 'notes');
  await mkdir(kiln);
  await writeFile(join(kiln, 'a.md'), 'one\ntwo\n');
  journal = new ChangeJournal({ kilnRoot: kiln, files: confinedKilnFiles(kiln), log: silentLogger, keepDays: 30, maxMb: 100 });
  const reviewer = { review: async (proposal: ChangeProposal) => (proposals.push(proposal), decide(proposal)) };
  const { agents } = createAgents({ edits: () => ({ reviewer, reviewEdits: 'always', journal, kilnRoot: kiln }) });
  session = await agents.start('scripted', { host, cwd: workspace.dir });
});
after(async () => {
  await session.dispose();
  await workspace.cleanup();
});

test('an overwrite is one diff review (no yes/no prompt); a rejection reaches the agent and leaves the file', async () => {
  decide = () => ({ accepted: false, reason: 'keep two' });
  const target = join(workspace.dir, 'notes', 'a.md');
  assert.match(await ask(`write ${target} one\nTWO\n`), /^error:-32602:.*rejected the change to a\.md: keep two/);
  assert.equal(await readFile(target, 'utf8'), 'one\ntwo\n');
  assert.equal(host.asked.length, 0, 'no permission prompt beside the review');
  assert.deepEqual(proposals.map((p) => [p.path, p.kind, p.actor.agent, p.actor.tool, Buffer.from(p.before!).toString()]), [['a.md', 'update', 'scripted', 'fs/write_text_file', 'one\ntwo\n']]);
});

test('accepted: written and journaled in the kiln under the turn; a new file is an addition; files outside the kiln are reviewed but not journaled', async () => {
  decide = () => ({ accepted: true });
  proposals.length = 0;
  assert.equal(await ask(`write ${join(workspace.dir, 'notes', 'a.md')} changed`), 'wrote');
  assert.equal(await ask(`write ${join(workspace.dir, 'notes', 'new.md')} fresh`), 'wrote');
  assert.equal(await ask(`write ${join(workspace.dir, 'outside-kiln.txt')} elsewhere`), 'wrote');
  assert.deepEqual(proposals.map((p) => [p.path, p.kind]), [['a.md', 'update'], ['new.md', 'create'], ['outside-kiln.txt', 'create']]);
  const rows = await journal.list();
  assert.deepEqual(rows.map((row) => [row.path, row.kind, row.tool, row.agent]), [['a.md', 'update', 'fs/write_text_file', 'scripted'], ['new.md', 'create', 'fs/write_text_file', 'scripted']]);
  // Each prompt was its own turn: the newest (new.md) undoes alone.
  await applyUndo(journal, confinedKilnFiles(join(workspace.dir, 'notes')), await planUndo(journal, confinedKilnFiles(join(workspace.dir, 'notes')), newestTurn(rows)));
  assert.equal(await readFile(join(workspace.dir, 'notes', 'a.md'), 'utf8'), 'changed');
  await assert.rejects(readFile(join(workspace.dir, 'notes', 'new.md')));
});
