// `[processing].exclude` globs as .gitignore reads them: without a slash a glob matches a name at
// any depth (the example config's `*.draft.md`), with a slash it matches from the kiln root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { scanKiln, scanPaths } from '../../../src/core/kiln/kilnScanner';
import { excludeMatcher, listNotePaths } from '../../../src/core/kiln/kilnWalk';

const NOTES = [
  'idea.draft.md',
  'journal/2026-05.md',
  'journal/plan.draft.md',
  'journal/drafts/a.md',
  'garden/drafts/b.md',
  'garden/archive/old.md',
  'archive/older.md',
  'archives/kept.md',
  'veg/tomatoes.md',
];
const EXCLUDE = ['*.draft.md', 'journal/drafts/**', 'archive/'];
const KEPT = ['archives/kept.md', 'garden/drafts/b.md', 'journal/2026-05.md', 'veg/tomatoes.md'];

function kiln(): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-exclude-'));
  for (const path of NOTES) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), `# ${path}\n`);
  }
  return root;
}

test('a glob without a slash matches names at any depth; one with a slash matches from the root', () => {
  const excluded = excludeMatcher(EXCLUDE);
  assert.equal(excluded('journal/plan.draft.md'), true);
  assert.equal(excluded('idea.draft.md'), true);
  assert.equal(excluded('journal/drafts/a.md'), true);
  assert.equal(excluded('garden/drafts/b.md'), false, 'journal/drafts/** is rooted');
  assert.equal(excluded('garden/archive'), true, 'a trailing slash still names a folder anywhere');
  assert.equal(excluded('archives'), false);
  assert.equal(excludeMatcher([])('x.md'), false);
});

test('the index scan, the editor path scan and the kiln tools leave the same notes out', async () => {
  const root = kiln();
  try {
    const rules = { exclude: EXCLUDE, max_file_size_kb: 1024 };
    assert.deepEqual((await scanKiln(root, rules)).notes.map((n) => n.path), KEPT);
    assert.deepEqual(await listNotePaths(root, '', { recursive: true, exclude: EXCLUDE }), KEPT);
    const saved = await scanPaths(root, ['journal/plan.draft.md', 'garden', 'veg/tomatoes.md'], rules);
    assert.deepEqual(saved.notes.map((n) => n.path), ['garden/drafts/b.md', 'veg/tomatoes.md']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
