// The agents' text_search and property_search with `store = "postgres"` (issue 18): answered by the
// team database, as the editor's and the CLI's text and property modes are, with the tools' result
// shapes kept; a flat store leaves them to the notes on disk. Notes present in only one of the two
// places show which source answered. Against pglite-server over the real wire protocol.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger } from '../../../src/core/host';
import { indexSemanticSearch } from '../../../src/core/index/semanticSearchFn';
import type { KilnIndex } from '../../../src/core/index/kilnIndex';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { pgIndex, usePgServers } from './pgHelpers';

const { server, embeddings } = usePgServers();

const NOTES: Record<string, string> = {
  'nightly.md': '---\nstatus: Draft\ntags: [ops]\nrating: 4\n---\n# Nightly job\n\nThe notes were indexed overnight.\n\n## Afterwards\n\nThe gardeners planted bulbs.\n',
  'garden/beds.md': '---\nstatus: done\ntags: [garden, ops]\n---\n# Raised beds\n\nCedar boards, indexed by row.\n',
};

function tools(kilnRoot: string, index: KilnIndex) {
  const all = createKilnTools({ kilnRoot, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, semanticSearch: indexSemanticSearch(() => index) });
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => all.find((t) => t.name === name)!.call(args);
  const json = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    assert.ok(!result.isError, text(result));
    return JSON.parse(text(result));
  };
  return { call, json };
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

test('text_search answers from the database: stems, relevance order, {query, count, results} kept; a folder narrows it; a pattern reads the disk', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'agents/text' });
  try {
    await index.update();
    // Only the database knows nightly.md now; only the disk knows draft.md.
    rmSync(join(kiln, 'nightly.md'));
    writeFileSync(join(kiln, 'draft.md'), '# Draft\n\nIndexing the drafts later.\n');
    const { call, json } = tools(kiln, index);
    const found = await json('text_search', { query: 'indexing' });
    assert.equal(found.query, 'indexing');
    assert.deepEqual(found.results.map((r: { path: string }) => r.path).sort(), ['garden/beds.md', 'nightly.md'], 'the database answered, with stems');
    assert.equal(found.count, 2);
    const [first] = found.results;
    assert.deepEqual(Object.keys(first).sort(), ['endLine', 'heading', 'path', 'score', 'sections', 'snippet', 'startLine', 'title']);
    assert.ok(first.score > 0 && first.score <= 1);
    const lines = await json('text_search', { query: 'planting', chunks: true });
    assert.deepEqual(lines.results.map((r: { path: string }) => r.path), ['nightly.md']);
    assert.deepEqual(Object.keys(lines.results[0]).sort(), ['line', 'path', 'text']);
    assert.match(lines.results[0].text, /planted bulbs/);
    // A folder narrows the database's search to the notes under it (a folder, not a string prefix, not a LIKE pattern).
    assert.deepEqual((await json('text_search', { query: 'indexing', folder: 'garden' })).results.map((r: { path: string }) => r.path), ['garden/beds.md']);
    assert.deepEqual((await json('text_search', { query: 'indexing', folder: 'garden/' })).results.map((r: { path: string }) => r.path), ['garden/beds.md']);
    for (const folder of ['gard', '%', '_arden']) assert.equal((await json('text_search', { query: 'indexing', folder })).count, 0, folder);
    assert.equal((await call('text_search', { query: 'indexing', folder: '../..' })).isError, true, 'a folder outside the kiln is refused');
    // A regular expression needs the notes' lines: the disk answers it.
    assert.deepEqual((await json('text_search', { query: '/index\\w+/i' })).results.map((r: { path: string }) => r.path), ['draft.md', 'garden/beds.md']);
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('property_search answers from the database with each note’s frontmatter; null and objects read the disk', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'agents/property' });
  try {
    await index.update();
    rmSync(join(kiln, 'nightly.md'));
    writeFileSync(join(kiln, 'later.md'), '---\nstatus: draft\n---\n# Later\n');
    const { json } = tools(kiln, index);
    const drafts = await json('property_search', { properties: { status: 'draft' } });
    assert.deepEqual(drafts, { count: 1, notes: [{ path: 'nightly.md', title: 'Nightly job', frontmatter: { status: 'Draft', tags: ['ops'], rating: 4 } }] });
    assert.deepEqual((await json('property_search', { properties: { tags: ['ops', 'garden'] } })).notes.map((n: { path: string }) => n.path), ['garden/beds.md']);
    assert.deepEqual((await json('property_search', { properties: { rating: 4, tags: '#ops' } })).notes.map((n: { path: string }) => n.path), ['nightly.md']);
    // A wanted null (absent) is the notes' own rule: the disk answers.
    assert.deepEqual((await json('property_search', { properties: { rating: null } })).notes.map((n: { path: string }) => n.path), ['garden/beds.md', 'later.md']);
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('hostile tool input through the database: 10,000 characters, tsquery syntax, blank and empty queries answer or explain, never a raw SQL error', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { kiln_id: 'agents/hostile' });
  try {
    await index.update();
    const { call, json } = tools(kiln, index);
    assert.equal((await json('text_search', { query: 'indexing '.repeat(1111) })).results[0]?.path !== undefined, true, '10,000 characters answer');
    for (const query of ["!&|():*'\\", "'); DROP TABLE hearth_chunks; --", '   ', 'x'.repeat(10_000), '<-> :* \\\\ \u0000']) {
      const found = await json('text_search', { query });
      assert.ok(Array.isArray(found.results) && found.count === found.results.length, JSON.stringify(query.slice(0, 30)));
    }
    assert.deepEqual((await json('text_search', { query: "indexing:* & !(bulbs) | 'x'" })).results.map((r: { path: string }) => r.path).sort(), ['garden/beds.md', 'nightly.md']);
    for (const bad of [{ query: '' }, { query: 'y'.repeat(10_001) }]) {
      const result = await call('text_search', bad);
      assert.equal(result.isError, true);
      assert.doesNotMatch(text(result), /syntax error|tsquery|SQL|hearth_chunks/i);
    }
    for (const properties of [{ "status'); DROP TABLE hearth_notes; --": 'x' }, { status: "'' OR 1=1" }, { k: '\u0000' }, { ['k'.repeat(5000)]: 'v' }]) {
      assert.equal((await json('property_search', { properties })).count, 0);
    }
    assert.equal((await json('text_search', { query: 'indexed' })).count, 2, 'the tables are whole');
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});

test('with the flat store both tools read the notes on disk, as before (literal lines, score 1)', async () => {
  const kiln = makeKiln(NOTES);
  const index = pgIndex(kiln, server.url, embeddings.url, { store: 'flat' });
  try {
    writeFileSync(join(kiln, 'draft.md'), '---\nstatus: draft\n---\n# Draft\n\nIndexing the drafts later.\n');
    const { json } = tools(kiln, index);
    const found = await json('text_search', { query: 'indexing' });
    assert.deepEqual(found.results.map((r: { path: string; score: number }) => [r.path, r.score]), [['draft.md', 1]], 'literal: indexed is not indexing');
    assert.deepEqual((await json('property_search', { properties: { status: 'draft' } })).notes.map((n: { path: string }) => n.path), ['draft.md', 'nightly.md']);
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});
