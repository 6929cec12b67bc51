// Search while the embedding model cannot answer (#29): a first start offline, before the model was
// ever fetched, finds notes by their words (the notes on disk), says why (KilnIndex.wordsOnly), and
// the index run's error says how to get the model or point [embedding] elsewhere. Real embedders:
// the static model fetched from a hub that cannot be reached, a local runner on a closed port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/host';
import { StaticEmbedder } from '../../../src/core/index/embedders/static/staticEmbedder';
import { indexSemanticSearch } from '../../../src/core/index/semanticSearchFn';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { textOf } from '../gateway/helpers';
import { makeKiln, removeKiln, tinyIndex } from './kilnIndexHelpers';

const NOTES = {
  'herbs/Basil.md': '---\ntags: [herb]\n---\n# Basil\nPinch out the flowers to keep basil leafy.\nWater in the morning.\n',
  'herbs/Companion Planting.md': '# Companion planting\nBasil beside tomatoes keeps pests away.\n',
  'kitchen/bread.md': '# Bread\nFlour, water, salt and yeast.\n',
};

/** A KilnIndex whose embedder is the default static model, with no cache and no reachable hub (offline). */
function offlineIndex(root: string) {
  const index = tinyIndex(root);
  const cacheDir = mkdtempSync(join(tmpdir(), 'hearth-empty-model-cache-'));
  index.setup.create = async () => new StaticEmbedder({ providerType: 'local_cpu', model: 'minishlab/potion-base-8M', cacheDir, remoteHost: 'http://127.0.0.1:9/' });
  return index;
}

test('offline before the model was fetched: the run fails saying why and what to do; search answers on words, labelled', async () => {
  const root = makeKiln(NOTES);
  const index = offlineIndex(root);
  try {
    await assert.rejects(index.update(), (error: unknown) => {
      assert.equal((error as { code?: string }).code, 'embedding.model_unavailable');
      assert.match((error as Error).message, /set \[embedding\]\.model to that folder's path, or point \[embedding\] at another provider/);
      return true;
    });
    assert.equal(index.wordsOnly, undefined, 'nothing searched yet');
    const results = await index.search('pinch basil flowers', { limit: 5 });
    assert.deepEqual(results.map((r) => r.path), ['herbs/Basil.md', 'herbs/Companion Planting.md']);
    assert.equal(results[0].score, 1, 'every word of the query');
    assert.equal(results[0].startLine, 4, 'the first line holding a word, its line in the file (after the frontmatter)');
    assert.equal(results[0].snippet, '# Basil');
    assert.ok(results[1].score > 0 && results[1].score < 1);
    assert.match(index.wordsOnly ?? '', /^Could not fetch the embedding model "minishlab\/potion-base-8M"/, 'hosts can say why');
    // Semantic mode too; a query of no known word finds nothing rather than failing.
    assert.deepEqual((await index.search('yeast', { mode: 'semantic' })).map((r) => r.path), ['kitchen/bread.md']);
    assert.deepEqual(await index.search('zucchini'), []);
    // Text search never needed the model.
    assert.equal((await index.search('Pinch out', { mode: 'text' }))[0]?.path, 'herbs/Basil.md');
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('semantic_search for an agent offline finds the notes by their words and is told they were matched on words only', async () => {
  const root = makeKiln(NOTES);
  const index = offlineIndex(root);
  try {
    const tool = createKilnTools({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, semanticSearch: indexSemanticSearch(() => index) }).find((t) => t.name === 'semantic_search')!;
    const answer = JSON.parse(textOf(await tool.call({ query: 'basil tomatoes' }))) as { count: number; results: { path: string }[]; wordsOnly?: { note: string } };
    assert.deepEqual(answer.results.map((r) => r.path), ['herbs/Companion Planting.md', 'herbs/Basil.md']);
    assert.match(answer.wordsOnly?.note ?? '', /matched on the query's words only .*Could not fetch the embedding model/);
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('a local runner that is not running: search answers on words; other search errors still surface', async () => {
  const root = makeKiln(NOTES);
  const index = tinyIndex(root, {}, { provider: 'local_runner', model: 'nomic-embed-text', api_url: 'http://127.0.0.1:9' });
  try {
    const results = await index.search('tomatoes pests', { limit: 5 });
    assert.deepEqual(results.map((r) => r.path), ['herbs/Companion Planting.md']);
    assert.ok(index.wordsOnly, 'labelled words only');
    await assert.rejects(index.search('/(/', { mode: 'text' }), (e: { code?: string }) => e.code === 'search.bad_query');
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});

test('with a model that answers, search is ranked as before and not labelled words only', async () => {
  const root = makeKiln(NOTES);
  const index = tinyIndex(root);
  try {
    await index.update();
    assert.ok((await index.search('basil', { limit: 3 })).length > 0);
    assert.equal(index.wordsOnly, undefined);
  } finally {
    await index.dispose();
    removeKiln(root);
  }
});
