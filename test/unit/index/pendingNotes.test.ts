// (#29 defect 7) A search during an index run finds the notes the run is updating by their new words
// before they are embedded, and rows that round to 0 % relevance are not listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeKiln, removeKiln, tinyIndex, writeNotes } from './kilnIndexHelpers';
import type { Embedder } from '../../../src/core/index/embedders/embedder';
import { PendingNotes } from '../../../src/core/index/search/pendingNotes';
import { withoutZeroRelevance } from '../../../src/core/index/search/searchResult';

const notes = (extra: string) => Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`beds/bed ${String(i).padStart(2, '0')}.md`, `# Bed ${i}\n\nSoil and compost for bed ${i}.${extra}\n`]));

test('mid-run, a word added to every note finds all of them, not only those embedded so far', async () => {
  const kiln = makeKiln(notes(''));
  const index = tinyIndex(kiln);
  // Once armed, the run's first embedding waits until the searches have answered.
  let armed = false;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const embedding = new Promise<void>((resolve) => (reached = resolve));
  const create = index.setup.create;
  index.setup.create = async () => {
    const embedder: Embedder = await create();
    const embed = embedder.embed.bind(embedder);
    embedder.embed = async (texts, signal) => {
      if (armed) {
        armed = false;
        reached();
        await gate;
      }
      return embed(texts, signal);
    };
    return embedder;
  };
  try {
    await index.update();
    writeNotes(kiln, notes('\nMarigolds keep the whitefly off.'));
    armed = true;
    const run = index.update();
    await embedding;
    const during = await index.search('whitefly', { limit: 100, lexicalOnly: true });
    release();
    await run;
    assert.equal(during.length, 40, `found ${during.length} of 40 mid-run`);
    for (const hit of during) assert.ok(hit.score > 0);
    const after = await index.search('whitefly', { limit: 100, lexicalOnly: true });
    assert.equal(after.length, 40);
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('no row at 0 % relevance is listed', async () => {
  assert.deepEqual(withoutZeroRelevance([{ score: 0.5 }, { score: 0.004 }, { score: 0.006 }, { score: 0 }]), [{ score: 0.5 }, { score: 0.006 }]);
  const kiln = makeKiln(notes(''));
  const index = tinyIndex(kiln);
  try {
    await index.update();
    for (const mode of ['semantic', 'hybrid'] as const) {
      const hits = await index.search('zzqx unrelated words', { limit: 40, mode });
      for (const hit of hits) assert.ok(Math.round(hit.score * 100) > 0, `${mode}: ${hit.path} at ${hit.score}`);
    }
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('a waiting note replaces its stale row with a match on its new words; written, the store answers again', () => {
  const pending = new PendingNotes();
  const stale = { path: 'a.md', title: 'a', heading: '', startLine: 1, endLine: 1, score: 0.9, snippet: 'old' };
  const other = { path: 'b.md', title: 'b', heading: '', startLine: 1, endLine: 1, score: 0.4, snippet: 'b' };
  pending.waiting([{ path: 'a.md', text: '# A\n\nnothing here\nTomatoes and marigolds' }, { path: 'c.md', text: 'only marigolds' }]);
  assert.deepEqual(pending.merge([stale, other], 'tomatoes marigolds', 10).map((r) => [r.path, r.score, r.startLine]), [
    ['a.md', 1, 4],
    ['c.md', 0.5, 1],
    ['b.md', 0.4, 1],
  ]);
  pending.written('a.md');
  pending.written('c.md');
  assert.deepEqual(pending.merge([stale, other], 'tomatoes', 10), [stale, other]);
});
