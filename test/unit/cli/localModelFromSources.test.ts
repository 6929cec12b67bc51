// The CLI run from sources (tests, `node --import tsx src/cli/main.ts`) in a folder outside the
// repository, with a local_cpu model: its embedding worker loads the TypeScript through tsx found
// beside the sources, not from the working directory (where there is none).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinyModelDir } from '../index/tinyModel';
import { runHearth } from './runHearth';

test('hearth index and a hybrid search from sources, in a scratch folder, with the local_cpu model', { timeout: 180_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-local-sources-'));
  try {
    mkdirSync(join(root, '.hearth'));
    writeFileSync(join(root, '.hearth', 'config.toml'), `[embedding]\nprovider = "local_cpu"\nmodel = ${JSON.stringify(tinyModelDir())}\n`);
    writeFileSync(join(root, 'garden.md'), '# Garden\nWater the tomatoes every morning.\n');
    writeFileSync(join(root, 'coffee.md'), '# Coffee\nGrind the beans just before brewing.\n');
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1' };
    const indexed = await runHearth(['index', '--json', '--workspace', root], { cwd: root, env });
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.equal(JSON.parse(indexed.stdout).embeddedNotes, 2);
    const found = await runHearth(['search', 'grind beans', '--json', '--workspace', root], { cwd: root, env });
    assert.equal(found.code, 0, found.stderr);
    assert.equal(JSON.parse(found.stdout)[0].path, 'coffee.md');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
