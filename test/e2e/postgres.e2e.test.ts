// End to end in a real VS Code with the packaged .vsix: a kiln with `store = "postgres"` on a
// pglite-server (the real PostgreSQL wire protocol, pgvector in WASM) is indexed on activation,
// and "Hearth: Semantic Search" returns hits from the database. A teammate indexed the same notes
// first (other folder, same kiln_id), so the editor's index embeds nothing: only queries reach the
// OpenAI-compatible embeddings server; "Hearth: Check Index" counts the database's notes, and "Clear
// Index" asks about the shared database (Cancel keeps its rows). Stopping the
// database shows "Index unreachable".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import pg from 'pg';
import { openBrowser, prerequisites, quickPickRows, runCommand, screenshot, startCodeServer, statusItem, tempDir, until, type CodeServer, type Workbench } from './harness';
import { makeKiln, removeKiln } from '../unit/index/kilnIndexHelpers';
import { pgIndex, startOpenAiEmbeddings, startPgServer, type CountingEmbedder, type PgServer } from '../unit/store/pgHelpers';

const skip = prerequisites();
const NOTES: Record<string, string> = {
  'Welcome.md': '# Welcome\n\nThis notebook is about the garden and the kitchen.\n',
  'garden/tomatoes.md': '# Tomatoes\n\nPlant them in May.\n\n## Watering\n\nWater the tomatoes every morning, never the leaves.\n',
  'bread.md': '# Bread\n\nFlour, water, salt and yeast.\n',
};

let scratch: ReturnType<typeof tempDir> | undefined;
let codeServer: CodeServer | undefined;
let workbench: Workbench | undefined;
let page: Page;
let server: PgServer | undefined;
let embeddings: CountingEmbedder | undefined;
let teammate: string | undefined;
let afterTeammate = 0;

before(async () => {
  if (skip) return;
  server = await startPgServer();
  embeddings = await startOpenAiEmbeddings();
  teammate = makeKiln(NOTES);
  const index = pgIndex(teammate, server.url, embeddings.url, { kiln_id: 'team/notebook' });
  await index.update();
  await index.dispose();
  afterTeammate = embeddings.texts();
  scratch = tempDir('postgres');
  const ws = join(scratch.path, 'notebook');
  mkdirSync(join(ws, '.hearth'), { recursive: true });
  writeFileSync(
    join(ws, '.hearth', 'config.toml'),
    `[embedding]\nprovider = "cloud_b"\nmodel = "team-embed"\napi_url = "${embeddings.url}/v1"\nbatch_size = 8\n\n[processing]\nstore = "postgres"\ndatabase_url = "{env:HEARTH_DATABASE_URL}"\nkiln_id = "team/notebook"\n`,
  );
  for (const [path, text] of Object.entries(NOTES)) {
    mkdirSync(join(ws, path, '..'), { recursive: true });
    writeFileSync(join(ws, path), text);
  }
  codeServer = await startCodeServer({ workspace: ws, env: { HEARTH_DATABASE_URL: server.url.replace('postgres@', 'postgres:E2eSecretPw@'), CLOUD_B_API_KEY: 'sk-e2e-key' } });
  workbench = await openBrowser(codeServer.url);
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await codeServer?.stop();
  await server?.stop();
  await embeddings?.stop();
  if (teammate) removeKiln(teammate);
  scratch?.remove();
});

const indexStatus = async () => (await statusItem(page, 'hearth.index').innerText()).trim();

test('store = "postgres": indexed on activation from the shared database, Semantic Search returns its hits', { skip, timeout: 240_000 }, async () => {
  await until('the index status "3 notes"', async () => ((await indexStatus()).includes('3 notes') ? true : undefined), 90_000);
  assert.equal(embeddings!.texts(), afterTeammate, 'the editor embedded nothing: the teammate had');
  await runCommand(page, 'Hearth: Semantic Search');
  await page.locator('.quick-input-widget input').waitFor();
  await page.keyboard.type('water the tomatoes every morning');
  const row = quickPickRows(page).filter({ hasText: 'Tomatoes' }).first();
  await row.waitFor({ timeout: 30_000 });
  assert.match(await row.innerText(), /garden\/tomatoes\.md/);
  await screenshot(page, 'postgres-quick-pick');
  await page.keyboard.press('Escape');
  // Check Index asks the index (the database), not the kiln's folder, which holds no index here.
  await runCommand(page, 'Hearth: Check Index');
  await page.locator('.notifications-toasts', { hasText: /the index holds 3 notes \(\d+ chunks\), embedded with cloud_b \/ team-embed/ }).first().waitFor({ timeout: 30_000 });
  // Clear Index says it empties the shared team database for everyone, not "Removes <kiln>/.hearth/index"; Cancel keeps it.
  await runCommand(page, 'Hearth: Clear Index');
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 20_000 });
  const asked = await dialog.innerText();
  assert.match(asked, /Clear this kiln from the shared team index\?/);
  assert.match(asked, /for every member who uses it/);
  assert.doesNotMatch(asked, /\.hearth[\\/]index/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const db = new pg.Client({ connectionString: server!.url });
  await db.connect();
  try {
    const rows = await db.query("SELECT count(*)::int AS n FROM hearth_notes WHERE kiln = 'team/notebook'");
    assert.equal(rows.rows[0].n, 3);
  } finally {
    await db.end();
  }
});
