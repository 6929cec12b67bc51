// Many writers against one database, as users run them: `hearth index` processes side by side,
// and one killed with SIGKILL mid-run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { HEARTH_MAIN, TSX_LOADER, runHearth } from '../cli/runHearth';
import { startOpenAiEmbeddings, startPgServer, type CountingEmbedder, type PgServer } from './pgHelpers';

let server: PgServer;
let embeddings: CountingEmbedder;
let slow: CountingEmbedder;
let db: pg.Client;

before(async () => {
  server = await startPgServer();
  embeddings = await startOpenAiEmbeddings();
  slow = await startOpenAiEmbeddings(16, 150);
  db = new pg.Client({ connectionString: server.url });
  await db.connect();
});
after(async () => {
  await db?.end();
  await embeddings?.stop();
  await slow?.stop();
  await server?.stop();
});

function notes(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`n${String(i).padStart(3, '0')}.md`] = `# Note ${i}\n\nFirst section of note ${i} about topic ${i % 7}.\n\n## Details\n\nMore words for note ${i}: ${'detail '.repeat(i % 5 + 1)}\n`;
  }
  return files;
}

function kilnFor(files: Record<string, string>, kilnId: string, embedUrl: string): string {
  const root = makeKiln(files);
  mkdirSync(join(root, '.hearth'), { recursive: true });
  writeFileSync(
    join(root, '.hearth', 'config.toml'),
    `[embedding]\nprovider = "cloud_b"\nmodel = "cli-embed"\napi_url = "${embedUrl}/v1"\nbatch_size = 4\n\n[processing]\nstore = "postgres"\ndatabase_url = "{env:HEARTH_DATABASE_URL}"\nkiln_id = "${kilnId}"\n`,
  );
  return root;
}

function envFor(root: string): Record<string, string> {
  return { HEARTH_TRUST: '1', XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_DATABASE_URL: server.url, CLOUD_B_API_KEY: 'sk-test-key', HOME: root };
}

async function chunkCount(kilnId: string): Promise<number> {
  return Number((await db.query('SELECT count(*)::int AS n FROM hearth_chunks WHERE kiln = $1', [kilnId])).rows[0].n);
}

/** Notes whose chunk ordinals are not exactly 0..n-1 (a half-written or doubled note). */
async function brokenNotes(kilnId: string): Promise<string[]> {
  const rows = await db.query('SELECT path FROM hearth_chunks WHERE kiln = $1 GROUP BY path HAVING count(*) <> max(ordinal) + 1 OR min(ordinal) <> 0', [kilnId]);
  return rows.rows.map((r) => r.path as string);
}

test('two hearth index processes at once on one kiln end with the chunks of a single run', async () => {
  const files = notes(40);
  const single = kilnFor(files, 'cli/single', embeddings.url);
  const shared = kilnFor(files, 'cli/shared', embeddings.url);
  try {
    const alone = await runHearth(['index', '--json'], { cwd: single, env: envFor(single) });
    assert.equal(alone.code, 0, alone.stderr);
    const expected = JSON.parse(alone.stdout).chunks as number;
    assert.equal(await chunkCount('cli/single'), expected);
    // The same notes under another kiln id: vectors are shared, so wipe them to make both processes embed.
    await db.query("DELETE FROM hearth_embeddings WHERE model_id IN (SELECT id FROM hearth_models WHERE model = 'cli-embed')");
    const [a, b] = await Promise.all([runHearth(['index', '--json'], { cwd: shared, env: envFor(shared) }), runHearth(['index', '--json'], { cwd: shared, env: envFor(shared) })]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(await chunkCount('cli/shared'), expected, 'no duplicates, nothing lost');
    assert.deepEqual(await brokenNotes('cli/shared'), []);
    assert.equal(Number((await db.query('SELECT count(*)::int AS n FROM hearth_notes WHERE kiln = $1', ['cli/shared'])).rows[0].n), 40);
  } finally {
    removeKiln(single);
    removeKiln(shared);
  }
});

test('kill -9 mid-index: every note in the database is whole, and the next run completes it', async () => {
  const files = notes(60);
  const kiln = kilnFor(files, 'cli/killed', slow.url);
  try {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, HEARTH_MAIN, 'index'], { cwd: kiln, env: { PATH: process.env.PATH ?? '', ...envFor(kiln) }, stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 120_000;
    while ((await chunkCount('cli/killed')) < 10) {
      assert.ok(Date.now() < deadline && child.exitCode === null, 'the run wrote nothing before the deadline');
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    await exited;
    const partial = await chunkCount('cli/killed');
    assert.ok(partial > 0 && partial < 120, `killed mid-run (${partial} chunks)`);
    assert.deepEqual(await brokenNotes('cli/killed'), [], 'no half-written note');
    const resumed = await runHearth(['index', '--json'], { cwd: kiln, env: envFor(kiln) });
    assert.equal(resumed.code, 0, resumed.stderr);
    const report = JSON.parse(resumed.stdout);
    assert.equal(report.notes, 60);
    assert.equal(await chunkCount('cli/killed'), report.chunks);
    assert.deepEqual(await brokenNotes('cli/killed'), []);
  } finally {
    removeKiln(kiln);
  }
});

test('hearth index --copy-to flat copies the database vectors into the flat store, embedding nothing; bad kinds are usage errors', async () => {
  const kiln = kilnFor(notes(12), 'cli/copy', embeddings.url);
  try {
    const first = await runHearth(['index', '--json'], { cwd: kiln, env: envFor(kiln) });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(JSON.parse(first.stdout).vectorIndex, 'hnsw_vector');
    const mark = embeddings.texts();
    const copy = await runHearth(['index', '--copy-to', 'flat', '--json'], { cwd: kiln, env: envFor(kiln) });
    assert.equal(copy.code, 0, copy.stderr);
    const report = JSON.parse(copy.stdout);
    assert.equal(report.reembedded, 0);
    assert.equal(report.to, 'flat');
    assert.equal(report.chunks, JSON.parse(first.stdout).chunks);
    assert.equal(embeddings.texts() - mark, 0);
    for (const bad of ['postgres', 'mysql']) {
      const refused = await runHearth(['index', '--copy-to', bad], { cwd: kiln, env: envFor(kiln) });
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /--copy-to/);
    }
  } finally {
    removeKiln(kiln);
  }
});
