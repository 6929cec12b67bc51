// `hearth links` and `hearth related` from the sources, as a user's shell runs them, on a kiln whose
// [embedding] is the tiny generated model (the real transformers.js).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { tinyModelDir } from '../index/tinyModel';
import { runHearth } from './runHearth';

const NOTES = {
  'Watering.md': '# Watering\nWater the tomatoes every morning in summer.\n',
  'garden/Beds.md': '# Beds\nRaised beds with tomatoes need [[Watering]] daily.\n',
  'Home.md': '# Home\nStart at [[watering#Schedule]] and [[Missing]].\n',
  'kitchen/Bread.md': '# Bread\nFlour, water, salt and yeast.\n',
};

function kiln(): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-links-'));
  mkdirSync(join(root, '.hearth'));
  writeFileSync(join(root, '.hearth', 'config.toml'), `[embedding]\nprovider = "local_cpu"\nmodel = ${JSON.stringify(tinyModelDir())}\n`);
  for (const [path, text] of Object.entries(NOTES)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const hearth = (root: string, ...args: string[]) =>
  runHearth([...args, '--workspace', root], { cwd: root, env: { XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1' } });

test('hearth links NOTE: backlinks with their line, outgoing, unresolved; --json; a missing note is exit 1', async () => {
  const root = kiln();
  try {
    const text = await hearth(root, 'links', 'Watering');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Backlinks \(2\)\n {2}Home\.md:2 {2}Start at \[\[watering#Schedule\]\] and \[\[Missing\]\]\.\n {2}garden\/Beds\.md:2 {2}Raised beds/);
    const json = JSON.parse((await hearth(root, 'links', 'Home.md', '--json')).stdout);
    assert.deepEqual(json.outgoing.map((l: { path: string; fragment: string }) => [l.path, l.fragment]), [['Watering.md', 'Schedule']]);
    assert.deepEqual(json.unresolved.map((l: { target: string }) => l.target), ['Missing']);
    const missing = await hearth(root, 'links', 'Nope.md');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No note at "Nope.md"/);
    assert.equal((await hearth(root, 'links')).code, 2);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('hearth related NOTE | --text: notes from the index, the note itself left out', async () => {
  const root = kiln();
  try {
    const byNote = await hearth(root, 'related', 'Watering.md', '--json', '--limit', '3');
    assert.equal(byNote.code, 0, byNote.stderr);
    const related = JSON.parse(byNote.stdout);
    assert.equal(related.path, 'Watering.md');
    assert.ok(related.results.length > 0 && related.results.length <= 3);
    assert.ok(!related.results.some((r: { path: string }) => r.path === 'Watering.md'));
    // By meaning (the notes' centroids; the tiny model's weights are random, so no order is asserted here: noteCentroids.test.ts checks it).
    const scores = related.results.map((r: { score: number }) => r.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    assert.ok(related.results.every((r: { path: string; startLine: number }) => r.path in NOTES && r.startLine >= 1));
    const byText = await hearth(root, 'related', '--text', 'flour yeast bread', '--limit', '1');
    assert.equal(byText.code, 0, byText.stderr);
    assert.match(byText.stdout, /^kitchen\/Bread\.md:1-2 {2}Bread/);
    assert.equal((await hearth(root, 'related', 'Watering.md', '--text', 'x')).code, 2);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
