// `hearth search` while the embedding model cannot answer (#29): the index run's failure does not end
// the command; the notes are found on their words, --json prints exactly the documented array, and
// stderr says the results are words only, why, and what to change. Real CLI from sources, a local
// runner embedder on a port nothing listens on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHearth } from './runHearth';

test('hearth search with the embedding runner down answers on words and says so on stderr', { timeout: 120_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-words-only-cli-'));
  try {
    mkdirSync(join(root, '.hearth'));
    writeFileSync(join(root, '.hearth', 'config.toml'), '[embedding]\nprovider = "local_runner"\nmodel = "nomic-embed-text"\napi_url = "http://127.0.0.1:9"\n');
    writeFileSync(join(root, 'garden.md'), '# Garden\nWater the tomatoes every morning.\n');
    writeFileSync(join(root, 'coffee.md'), '# Coffee\nGrind the coffee beans before brewing.\n');
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1' };
    const found = await runHearth(['search', 'coffee beans', '--json', '--workspace', root], { cwd: root, env });
    assert.equal(found.code, 0, found.stderr);
    const results = JSON.parse(found.stdout) as { path: string; score: number }[];
    assert.deepEqual(results.map((r) => [r.path, r.score]), [['coffee.md', 1]]);
    assert.match(found.stderr, /search: words only \(the embedding model is not available\): /);
    // Another failure of the run is still the command's error.
    writeFileSync(join(root, '.hearth', 'config.toml'), '[embedding]\nprovider = "cloud_b"\nmodel = "m"\napi_url = "http://127.0.0.1:9/v1"\n');
    const failed = await runHearth(['search', 'coffee beans', '--workspace', root], { cwd: root, env });
    assert.notEqual(failed.code, 0);
    assert.doesNotMatch(failed.stderr, /words only/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
