// End to end in a real VS Code (code-server + Chromium) with the packaged .vsix: a kiln with
// `[processing].store = "postgres"` on a real PostgreSQL wire protocol (pglite-server with pgvector,
// a subprocess on loopback) is indexed on activation through an OpenAI-compatible embeddings server
// (the eval's hashed bag of words, counting the texts it embeds), "Hearth: Semantic Search" returns
// hits from the database, and the notes are rows in the database under the kiln_id derived from the
// folder's git remote. A second member (another folder, the same repository cloned over https with
// a token in the URL) opens the same notes: the index is complete without a single embedding.
//
// Needs code-server, the packaged extension and Chromium (see harness.ts): skipped locally when one
// is missing, a failure in CI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { openBrowser, prerequisites, quickPickRows, runCommand, screenshot, startCodeServer, statusItem, tempDir, until, type CodeServer, type Workbench, indexSettled } from './harness';
import { startHashedEmbedServer, type HashedEmbedServer } from '../eval/hashedEmbedServer';
import { startPgServer, type PgServer } from '../unit/store/pgHelpers';

const skip = prerequisites();
const KILN_ID = 'github.com/team/notes';

let scratch: ReturnType<typeof tempDir> | undefined;
let database: PgServer | undefined;
let embeddings: HashedEmbedServer | undefined;
const opened: { codeServer: CodeServer; workbench: Workbench }[] = [];

/** A member's clone: the same notes, the git remote in `.git/config`, store = "postgres". */
function memberFolder(name: string, remote: string): string {
  const ws = join(scratch!.path, name);
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  mkdirSync(join(ws, '.git'), { recursive: true });
  mkdirSync(join(ws, 'garden'));
  writeFileSync(join(ws, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  writeFileSync(
    join(ws, '.hearth', 'config.toml'),
    `[embedding]\nprovider = "cloud_b"\napi_url = "${embeddings!.url}"\nmodel = "hashed-bow-256"\n\n[processing]\nstore = "postgres"\ndatabase_url = "{env:HEARTH_DATABASE_URL}"\n`,
  );
  writeFileSync(join(ws, 'Welcome.md'), '# Welcome\n\nThis notebook is about the garden and the kitchen.\n');
  writeFileSync(join(ws, 'garden', 'tomatoes.md'), '---\ntitle: Tomatoes\ntags: [garden]\n---\n# Tomatoes\n\nPlant them in May.\n\n## Watering\n\nWater the tomatoes every morning, never the leaves.\n');
  writeFileSync(join(ws, 'bread.md'), '# Bread\n\nFlour, water, salt and yeast.\n');
  return ws;
}

async function open(ws: string): Promise<Page> {
  const codeServer = await startCodeServer({ workspace: ws, env: { HEARTH_DATABASE_URL: database!.url, CLOUD_B_API_KEY: 'sk-e2e-test' } });
  const workbench = await openBrowser(codeServer.url);
  opened.push({ codeServer, workbench });
  return workbench.page;
}

const indexShows = (page: Page, notes: number) =>
  until(`the index status "${notes} notes"`, async () => (indexSettled(await statusItem(page, 'hearth.index').innerText(), notes) ? true : undefined), 120_000);

async function semanticSearch(page: Page, query: string, expect: string): Promise<string> {
  await runCommand(page, 'Hearth: Semantic Search');
  // The pick, not the palette it replaces, must have the input before the query goes in (CI on 1.139
  // once typed it into the closing palette).
  await page.locator('.quick-input-widget', { hasText: 'Hearth: Semantic Search' }).waitFor({ timeout: 20_000 });
  await page.locator('.quick-input-widget input').fill(query);
  const row = quickPickRows(page).filter({ hasText: expect }).first();
  await row.waitFor({ timeout: 30_000 });
  const text = await row.innerText();
  await page.keyboard.press('Escape');
  return text;
}

before(async () => {
  if (skip) return;
  scratch = tempDir('postgres-team');
  database = await startPgServer();
  embeddings = await startHashedEmbedServer();
});

after(async () => {
  for (const { codeServer, workbench } of opened) {
    await workbench.close();
    await codeServer.stop();
  }
  await embeddings?.stop();
  await database?.stop();
  scratch?.remove();
});

test('store = "postgres": the kiln is indexed into the database on activation and Semantic Search returns its hits', { skip, timeout: 300_000 }, async () => {
  const page = await open(memberFolder('alice-notes', 'git@github.com:team/notes.git'));
  await indexShows(page, 3);
  assert.ok(embeddings!.texts >= 3, `every chunk embedded once: ${embeddings!.texts} texts`);

  const row = await semanticSearch(page, 'water the tomatoes every morning', 'Tomatoes');
  assert.match(row, /garden\/tomatoes\.md:\d+/, `the path and line are shown: ${row}`);
  await screenshot(page, 'postgres-team-quick-pick');

  // The notes live in the database under the id derived from the git remote, not in local files.
  const client = new pg.Client({ connectionString: database!.url });
  await client.connect();
  try {
    const notes = await client.query<{ path: string; tags: string[] }>('SELECT path, tags FROM hearth_notes WHERE kiln = $1 ORDER BY path', [KILN_ID]);
    assert.deepEqual(notes.rows.map((r) => r.path), ['Welcome.md', 'bread.md', 'garden/tomatoes.md']);
    assert.deepEqual(notes.rows.find((r) => r.path === 'garden/tomatoes.md')?.tags, ['garden']);
    const chunks = await client.query<{ n: string }>('SELECT count(*) AS n FROM hearth_chunks WHERE kiln = $1', [KILN_ID]);
    assert.ok(Number(chunks.rows[0].n) >= 3);
  } finally {
    await client.end();
  }
});

test('a second member (another folder, the repository cloned over https with a token) embeds nothing and searches the same notes', { skip, timeout: 300_000 }, async () => {
  const before = embeddings!.texts;
  const page = await open(memberFolder('bob-clone', 'https://bob:ghp_secret@github.com/team/notes'));
  await indexShows(page, 3);
  assert.equal(embeddings!.texts - before, 0, 'no chunk embedded twice: the shared index already had every one');
  const row = await semanticSearch(page, 'flour salt yeast', 'Bread');
  assert.match(row, /bread\.md/);
  assert.ok(embeddings!.texts - before >= 1, 'the query went through the embedder');
});
