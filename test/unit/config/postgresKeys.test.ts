import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load';
import { runHearth } from '../cli/runHearth';
import { normalizeRemote, remoteUrl, resolveKilnId } from '../../../src/core/index/kilnId';

async function load(toml: string, trusted = true) {
  const root = mkdtempSync(join(tmpdir(), 'hearth-pgcfg-'));
  mkdirSync(join(root, '.hearth'));
  writeFileSync(join(root, '.hearth', 'config.toml'), toml);
  try {
    return await loadConfig({ trusted, workspaceRoot: root, globalConfigPath: join(root, 'none.toml'), env: { HOME: root } });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a database_url that is not a postgres URL is an error on its line; references and real URLs pass', async () => {
  for (const bad of ['mysql://u@h/db', 'not a url', 'postgres://', 'http://127.0.0.1:5432/x']) {
    const loaded = await load(`[processing]\nstore = "postgres"\ndatabase_url = ${JSON.stringify(bad)}\n`);
    const problem = loaded.problems.find((p) => p.keyPath === 'processing.database_url');
    assert.ok(problem, `no problem for ${bad}`);
    assert.equal(problem.severity, 'error');
    assert.equal(problem.line, 3);
  }
  for (const good of ['{env:HEARTH_DATABASE_URL}', '{secret:team-db}', 'postgres://hearth@db.example.com:5432/notes?sslmode=require', 'postgresql://u@127.0.0.1/x']) {
    const loaded = await load(`[processing]\nstore = "postgres"\ndatabase_url = ${JSON.stringify(good)}\n`);
    assert.deepEqual(loaded.problems.filter((p) => p.severity === 'error'), [], good);
    assert.equal(loaded.config.processing.database_url, good);
  }
});

test('database_url waits for trust: an untrusted workspace file does not send notes to its database', async () => {
  const loaded = await load('[processing]\nstore = "postgres"\ndatabase_url = "postgres://attacker.example/x"\n', false);
  assert.equal(loaded.config.processing.database_url, undefined);
  assert.ok(loaded.withheld.some((key) => key.keyPath === 'processing.database_url'));
});

test('kiln_id: ssh and https forms of one repository give the same id, userinfo stripped; else the folder name and its path\'s hash', async () => {
  const forms = [
    'git@github.com:team/notes.git',
    'https://alice:ghp_secret123@github.com/team/notes.git',
    'ssh://git@github.com:22/team/notes',
    'https://github.com/team/notes/',
  ];
  for (const form of forms) assert.equal(normalizeRemote(form), 'github.com/team/notes', form);
  assert.equal(normalizeRemote('not a remote'), undefined);
  assert.equal(remoteUrl('[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@x.org:a/b.git\n[remote "origin"]\n\turl = https://x.org/c/d\n'), 'https://x.org/c/d');
  const root = mkdtempSync(join(tmpdir(), 'hearth-kilnid-'));
  try {
    const kiln = join(root, 'notes');
    mkdirSync(kiln);
    assert.match(await resolveKilnId(kiln), /^notes-[0-9a-f]{8}$/);
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://bob:hunter22@gitlab.example.com/docs/handbook.git\n');
    const id = await resolveKilnId(kiln);
    assert.equal(id, 'gitlab.example.com/docs/handbook/notes', 'a kiln below the repository root: its folder inside the repository');
    assert.doesNotMatch(id, /hunter22|bob/);
    assert.equal(await resolveKilnId(kiln, 'explicit/id'), 'explicit/id');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('hearth config shows the kiln_id in use (derived from the git remote, userinfo stripped) and never the database password', async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-kilnid-cli-'));
  try {
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://carol:tok3nValue99@github.com/team/handbook.git\n');
    mkdirSync(join(root, '.hearth'));
    writeFileSync(join(root, '.hearth', 'config.toml'), '[processing]\nstore = "postgres"\ndatabase_url = "{env:HEARTH_DATABASE_URL}"\n');
    const run = await runHearth(['config', '--json'], { cwd: root, env: { HOME: root, XDG_CONFIG_HOME: join(root, '.xdg'), HEARTH_TRUST: '1', HEARTH_DATABASE_URL: 'postgres://hearth:Pa55wordXyz@db.example.com/notes' } });
    assert.equal(run.code, 0, run.stderr);
    const shown = JSON.parse(run.stdout).config.processing;
    assert.equal(shown.kiln_id, 'github.com/team/handbook');
    assert.equal(shown.database_url, '{env:HEARTH_DATABASE_URL}');
    assert.doesNotMatch(run.stdout + run.stderr, /Pa55wordXyz|tok3nValue99/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
