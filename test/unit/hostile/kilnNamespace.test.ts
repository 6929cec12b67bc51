// Finding 3 of the third attack review: an untrusted folder naming the team's `kiln_id` replaced
// the team kiln's rows in the shared database with its own, and a workspace could switch `store`
// to postgres and send its notes to the database the global config names. Without any attacker,
// two folders named `notes` with no git remote shared `kiln_id = "notes"` and deleted each other's
// rows on every run.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load';
import { resolveKilnId } from '../../../src/core/index/kilnId';
import { runHearth } from '../cli/runHearth';

const GLOBAL = '[processing]\ndatabase_url = "{env:HEARTH_DATABASE_URL}"\n';

async function load(workspace: string, trusted: boolean, global = GLOBAL) {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-ns-'));
  const root = join(dir, 'clone');
  mkdirSync(join(root, '.hearth'), { recursive: true });
  writeFileSync(join(dir, 'global.toml'), global);
  writeFileSync(join(root, '.hearth', 'config.toml'), workspace);
  try {
    return await loadConfig({ trusted, workspaceRoot: root, globalConfigPath: join(dir, 'global.toml'), env: { HOME: join(dir, 'home') }, trustName: 'Workspace Trust' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("an untrusted folder's kiln_id and store = \"postgres\" are withheld (located, named); trusted, they apply", async () => {
  const hostile = '[processing]\nstore = "postgres"\nkiln_id = "github.com/team/notes"\n';
  const untrusted = await load(hostile, false);
  assert.equal(untrusted.config.processing.kiln_id, undefined, "the team's kiln id is not taken from an untrusted folder");
  assert.notEqual(untrusted.config.processing.store, 'postgres', 'an untrusted folder does not switch to the shared database');
  const withheld = untrusted.withheld.map((key) => `${key.keyPath}@${key.line}:${key.area}`).sort();
  assert.deepEqual(withheld, ['processing.kiln_id@3:database', 'processing.store@2:database']);
  const problems = untrusted.problems.filter((p) => p.code === 'config.untrusted_key').map((p) => p.message);
  assert.ok(problems.some((m) => /`processing\.kiln_id` waits for Workspace Trust/.test(m)), problems.join('\n'));

  const trusted = await load(hostile, true);
  assert.equal(trusted.config.processing.kiln_id, 'github.com/team/notes');
  assert.equal(trusted.config.processing.store, 'postgres');
  assert.deepEqual(trusted.withheld, []);
});

test('a store that keeps the notes on this machine needs no trust; the global store = "postgres" still applies', async () => {
  const local = await load('[processing]\nstore = "vectra"\n', false);
  assert.equal(local.config.processing.store, 'vectra');
  assert.deepEqual(local.withheld, []);
  const global = await load('[processing]\nexclude = ["x/**"]\n', false, `${GLOBAL}store = "postgres"\nkiln_id = "me/notes"\n`);
  assert.equal(global.config.processing.store, 'postgres', 'the global file is always trusted');
  assert.equal(global.config.processing.kiln_id, 'me/notes');
});

test('two folders named notes without a git remote get different kiln ids; one folder keeps its id, through a link too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-ns-'));
  try {
    const a = join(dir, 'alice', 'notes');
    const b = join(dir, 'bob', 'notes');
    mkdirSync(a, { recursive: true });
    mkdirSync(b, { recursive: true });
    symlinkSync(a, join(dir, 'link'));
    const [idA, idB] = [await resolveKilnId(a), await resolveKilnId(b)];
    assert.notEqual(idA, idB, 'each run would delete the other folder’s rows');
    assert.match(idA, /^notes-[0-9a-f]{8}$/, 'still readable: the folder name leads');
    assert.equal(await resolveKilnId(a), idA, 'stable across runs');
    assert.equal(await resolveKilnId(join(dir, 'link')), idA, 'a link to the kiln is the same kiln');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hearth index in an untrusted clone that names a kiln id: stops with exit 3 and names the line; nothing is indexed', { timeout: 60_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-ns-cli-'));
  try {
    mkdirSync(join(root, '.hearth'));
    writeFileSync(join(root, '.hearth', 'config.toml'), '[processing]\nkiln_id = "github.com/team/notes"\n');
    writeFileSync(join(root, 'injected.md'), '# Injected\n');
    const run = await runHearth(['index'], { cwd: root, env: { HOME: root, XDG_CONFIG_HOME: join(root, '.xdg') } });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /config\.toml:2: processing\.kiln_id \(it chooses whose rows in the shared database/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
