// Related notes by note come from per-note centroids (the mean of a note's chunk vectors) kept beside
// the index: after index runs that change, add and delete notes they answer exactly as centroids
// computed afresh from the index, the note itself is never among them, and a store without vectors
// falls back to the hybrid query.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../../src/core/host';
import { indexSemanticSearch } from '../../../../src/core/index/semanticSearchFn';
import { dot } from '../../../../src/core/index/store/quantize';
import { centroidOf, NoteCentroids } from '../../../../src/core/kiln/links/noteCentroids';
import { bindKilnContext } from '../../../../src/core/kiln/tools/kilnTools';
import { relatedNotes } from '../../../../src/core/kiln/tools/linkTools';
import type { KilnIndex } from '../../../../src/core/index/kilnIndex';
import { makeKiln, removeKiln, tinyIndex } from '../../index/kilnIndexHelpers';

const KILN: Record<string, string> = {
  'Watering.md': '# Watering\nWater tomatoes in the morning. See [[Compost]].\n\n## Schedule\nEvery second day in summer, less in spring.\n',
  'Compost.md': '# Compost\nBrowns and greens, turned weekly. It feeds the soil.\n',
  'Soil.md': '# Soil\nLoam holds water; compost improves it.\n',
  'Bread.md': '# Bread\nFlour, water, salt and time. Bake at 230 degrees.\n',
  'Oven.md': '# Oven\nPreheat the oven; a stone helps the bread.\n',
  'Rome.md': '# Rome\nA trip plan: the forum, coffee at noon, museums.\n',
  'Meeting.md': '# Meeting\nAgenda: budget, the plan for spring, the garden beds.\n',
};

/** What a fresh computation from the index gives: every note's centroid, nearest to `path`'s first. */
async function fresh(index: KilnIndex, path: string, limit: number): Promise<[string, number][]> {
  const centroids = new Map<string, Float32Array>();
  for (const note of (await index.noteHashes()).keys()) {
    const found = await index.noteVectors(note);
    if (found && found.vectors.length > 0) centroids.set(note, centroidOf(found.vectors));
  }
  const own = centroids.get(path)!;
  return [...centroids]
    .filter(([note]) => note !== path)
    .map(([note, c]): [string, number] => [note, Math.round(Math.max(0, Math.min(1, dot(own, c))) * 1e4) / 1e4])
    .filter(([, score]) => Math.round(score * 100) > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit);
}

test('related notes by note follow index runs: the same answer as centroids computed afresh', async () => {
  const root = makeKiln(KILN);
  const index = tinyIndex(root);
  try {
    await index.update();
    const ctx = bindKilnContext({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, semanticSearch: indexSemanticSearch(() => index) });
    const asked = async (path: string) => (await relatedNotes(ctx, { path }, 4)).results;
    const first = await asked('Watering.md');
    assert.equal(first.length, 4);
    assert.deepEqual(first.map((r) => [r.path, r.score]), await fresh(index, 'Watering.md', 4));
    assert.ok(!first.some((r) => r.path === 'Watering.md'), 'the note itself is not related to itself');
    assert.equal(first.find((r) => r.path === 'Compost.md')?.linked, true);
    // Each with its section nearest to the note, as search shows one.
    for (const r of first) assert.ok(r.startLine >= 1 && r.endLine >= r.startLine && r.snippet.length > 0, r.path);

    // A run that changes one note, adds one and deletes one: the kept centroids move with it.
    writeFileSync(join(root, 'Bread.md'), '# Bread\nWater the tomatoes every morning; the soil and compost keep the water.\n');
    writeFileSync(join(root, 'Beds.md'), '# Beds\nRaised beds of soil and compost, watered in the morning.\n');
    rmSync(join(root, 'Soil.md'));
    await index.update();
    // Only the two notes written are read again (and the four answers' sections).
    const read: string[] = [];
    const noteVectors = index.noteVectors.bind(index);
    index.noteVectors = (path) => (read.push(path), noteVectors(path));
    await asked('Meeting.md');
    assert.deepEqual(read.slice(0, 2).sort(), ['Beds.md', 'Bread.md']);
    assert.equal(read.length, 2 + 4);
    for (const path of ['Watering.md', 'Bread.md', 'Beds.md', 'Rome.md']) {
      const kept = await asked(path);
      assert.equal(kept.length, 4, path);
      assert.deepEqual(kept.map((r) => [r.path, r.score]), await fresh(index, path, 4), path);
      assert.deepEqual((await new NoteCentroids(index).nearest(path, 4))!.map((n) => n.path), kept.map((r) => r.path), path);
      assert.ok(!kept.some((r) => r.path === 'Soil.md'), 'a deleted note is gone');
    }
    assert.ok((await asked('Watering.md')).some((r) => r.path === 'Beds.md'), 'an added note is found');
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('a store that hands out no vectors answers related notes with the hybrid query', async () => {
  const root = makeKiln(KILN);
  const index = tinyIndex(root, { store: 'vectra' });
  try {
    await index.update();
    assert.equal(await index.noteVectors('Watering.md'), undefined);
    const ctx = bindKilnContext({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, semanticSearch: indexSemanticSearch(() => index) });
    const results = (await relatedNotes(ctx, { path: 'Watering.md' }, 3)).results;
    assert.ok(results.length > 0);
    assert.ok(!results.some((r) => r.path === 'Watering.md'));
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});
