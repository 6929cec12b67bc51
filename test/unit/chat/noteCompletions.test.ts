// Mention completion on a real kiln folder: fuzzy on title and path, newest first for ties, hidden
// folders skipped; `#` narrows to the best note's headings with their line ranges (code fences
// ignored); a path out of the kiln never comes back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { headingsOf, NoteCatalog } from '../../../src/core/chat/context/noteCompletions';
import { fuzzyScore, rankNotes } from '../../../src/core/kiln/noteRanking';
import { attachmentBudget, cutToBudget, readAttachments } from '../../../src/core/chat/context/pendingAttachments';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';

let kiln: string;
before(() => {
  kiln = makeKiln({
    'techniques/Composting.md': '# Composting\n\nTurn it.\n\n## Browns\n\nLeaves.\n\n```md\n# not a heading\n```\n\n## Greens\n\nScraps.\n',
    'garden/compost bins.md': '# Bins\n',
    'old/compost.md': '# Old compost\n',
    'new/compost.md': '# New compost\n',
    '.hearth/compost-secret.md': '# hidden\n',
    'Bread.md': '# Bread\n',
  });
  utimesSync(join(kiln, 'old/compost.md'), new Date('2020-01-01'), new Date('2020-01-01'));
  utimesSync(join(kiln, 'new/compost.md'), new Date('2026-01-01'), new Date('2026-01-01'));
});
after(() => removeKiln(kiln));

test('fuzzy: subsequences match, word starts and runs count, non-matches are undefined', () => {
  assert.equal(fuzzyScore('xyz', 'Composting'), undefined);
  assert.ok(fuzzyScore('cmpst', 'Composting')! > 0);
  assert.ok(fuzzyScore('comp', 'Composting')! > fuzzyScore('cmpg', 'Composting')!);
});

test('notes: title matches first, equally good ones newest first, hidden folders skipped', async () => {
  const catalog = new NoteCatalog(() => kiln);
  const paths = (await catalog.complete('compost')).map((c) => c.path);
  assert.deepEqual(paths.slice(0, 2), ['new/compost.md', 'old/compost.md']);
  assert.ok(paths.includes('techniques/Composting.md') && paths.includes('garden/compost bins.md'));
  assert.ok(!paths.some((p) => p.startsWith('.hearth')));
  assert.deepEqual((await catalog.complete('brd')).map((c) => c.path), ['Bread.md']);
  assert.equal(rankNotes([{ path: 'a.md', title: 'a', mtime: 1 }], 'zzz').length, 0);
});

test('# narrows to the best note\'s headings with line ranges; fenced lines are not headings', async () => {
  const catalog = new NoteCatalog(() => kiln);
  assert.deepEqual(await catalog.complete('Composting', 'br'), [{ path: 'techniques/Composting.md', title: 'Composting', heading: 'Browns', startLine: 5, endLine: 12 }]);
  assert.deepEqual(headingsOf('# A\n```\n# no\n```\n## B\ntext').map((h) => [h.heading, h.startLine, h.endLine]), [['A', 1, 6], ['B', 5, 6]]);
});

test('a 5 MB note attached is cut to the budget at a line, and the cut says where', () => {
  const line = 'Compost needs browns and greens in balance, turned weekly.';
  const text = Array.from({ length: 90_000 }, (_, i) => `${i + 1} ${line}`).join('\n');
  assert.ok(text.length > 5_000_000);
  const cut = cutToBudget(text, 'big.md', 100_000);
  assert.ok(cut.length < 100_300);
  const tail = cut.slice(cut.lastIndexOf('\n') + 1);
  assert.match(tail, /^… \(cut at line (\d+) of big\.md to fit the attachment budget of 100,000 characters; lines (\d+)-90000 not attached/);
  const [, last, next] = /line (\d+) of.*lines (\d+)-/.exec(tail)!;
  assert.equal(Number(next), Number(last) + 1);
  assert.ok(cut.includes(`\n${last} ${line}\n…`), 'the last attached line is whole');
  assert.equal(cutToBudget('short', 'a.md', 100), 'short');
  assert.match(cutToBudget('x'.repeat(500), 'one-line.md', 100, 7), /^x{100}\n… \(cut at line 7 of one-line\.md/);
});

test('the attachment budget follows the model\'s context window and is shared by the attachments', async () => {
  assert.equal(attachmentBudget(undefined), 100_000);
  assert.equal(attachmentBudget(8_192), 16_384);
  assert.equal(attachmentBudget(1_000_000), 400_000);
  assert.equal(attachmentBudget(512), 4_000);
  const budgets: number[] = [];
  const selection = 'line one\n'.repeat(5_000);
  const read = await readAttachments([{ ref: { path: 'a.md' } }, { ref: { path: 'sel.md', startLine: 10, endLine: 5_009 }, text: selection }], async (ref, budget) => {
    budgets.push(budget);
    return `read ${ref.path}`;
  }, attachmentBudget(8_192));
  assert.deepEqual(budgets, [8_192]);
  assert.equal(read[0]!.text, 'read a.md');
  assert.match(read[1]!.text, /\n… \(cut at line \d+ of sel\.md to fit the attachment budget of 8,192 characters/);
  assert.ok(read[1]!.text.length < 8_192 + 300);
});

test('a note deleted between attaching and sending does not fail the message: the agent is told', async () => {
  const [gone] = await readAttachments([{ ref: { path: 'gone.md' } }], async () => {
    throw new Error('gone.md does not exist (moved or deleted?).');
  });
  assert.equal(gone!.text, '(gone.md could not be read: gone.md does not exist (moved or deleted?).)');
});
