// Finding 13 of the third attack review: one `hearth_models` row with another dimension (a member
// whose endpoint serves a different model under the same name) broke every member's index and
// search with "A vector has 64 dims; the index has 3" and no hint. Now such a row is skipped with
// a warning naming it, and each member keeps its own model's vectors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { makeKiln, removeKiln, writeNotes } from '../index/kilnIndexHelpers';
import { recordingLogger } from '../index/lexicalHelpers';
import { pgIndex, usePgServers } from './pgHelpers';
import type { KilnIndex } from '../../../src/core/index/kilnIndex';

const NOTES: Record<string, string> = {
  'garden.md': '# Garden\n\nTomatoes need sun and water every morning.\n',
  'rome.md': '# Rome\n\nThe Colosseum at dawn, then espresso near the Pantheon.\n',
};

const { server, embeddings } = usePgServers();

/** pgIndex with a recording logger (the counting server answers 16-dimension vectors). */
function member(kiln: string, processing: Record<string, unknown>, embedding: Record<string, unknown> = {}): { index: KilnIndex; warnings: string[] } {
  const log = recordingLogger();
  return { index: pgIndex(kiln, server.url, embeddings.url, processing, { log, embedding }), warnings: log.warnings };
}

async function addModelRow(model: string, dim: number): Promise<number> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    const row = await client.query<{ id: number }>("INSERT INTO hearth_models (provider, model, dim) VALUES ('cloud_b', $1, $2) RETURNING id", [model, dim]);
    return row.rows[0].id;
  } finally {
    await client.end();
  }
}

test('a newer hearth_models row of another dimension under the team\'s model name: skipped with a warning naming it; index and search keep working', { timeout: 120_000 }, async () => {
  const kiln = makeKiln(NOTES);
  try {
    const first = member(kiln, { kiln_id: 'dims/team' });
    await first.index.update();
    await first.index.dispose();
    const foreign = await addModelRow('team-embed', 64);
    const again = member(kiln, { kiln_id: 'dims/team' });
    try {
      writeNotes(kiln, { 'kitchen.md': '# Kitchen\n\nBread rises overnight in the cold oven.\n' });
      const report = await again.index.update();
      assert.equal(report.notes, 3);
      assert.equal(await again.index.dimensions(), 16);
      assert.equal((await again.index.search('Bread rises oven', { mode: 'hybrid', limit: 1 }))[0]?.path, 'kitchen.md');
      const named = again.warnings.filter((w) => w.includes(`hearth_models row ${foreign} `));
      assert.equal(named.length, 1, again.warnings.join('\n'));
      assert.match(named[0], /64 dimensions\) in the shared database is skipped: this endpoint's "team-embed" answers 16-dimension vectors/);
    } finally {
      await again.index.dispose();
    }
  } finally {
    removeKiln(kiln);
  }
});

test('the only row of a model name has another dimension: the first vectors skip it (warning naming it) and get a row of their own', { timeout: 120_000 }, async () => {
  const kiln = makeKiln(NOTES);
  const foreign = await addModelRow('shared-name', 3);
  const { index, warnings } = member(kiln, { kiln_id: 'dims/only-row' }, { model: 'shared-name' });
  try {
    const report = await index.update();
    assert.equal(report.notes, 2);
    assert.equal(await index.dimensions(), 16);
    assert.equal((await index.search('Colosseum espresso', { mode: 'hybrid', limit: 1 }))[0]?.path, 'rome.md');
    assert.equal(warnings.filter((w) => w.includes(`hearth_models row ${foreign} `)).length, 1, warnings.join('\n'));
  } finally {
    await index.dispose();
    removeKiln(kiln);
  }
});
