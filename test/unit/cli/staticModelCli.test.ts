// `hearth index --json` with local_cpu's static (model2vec) model, from sources: the report names the
// embedder in use (provider, model, dimensions), and a later change of model says the index was
// rebuilt, and why, on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateStaticModel } from '../../fixtures/static-model/generate.mjs';
import { tinyModelDir } from '../index/tinyModel';
import { runHearth } from './runHearth';

test('hearth index --json reports the static embedder; switching model rebuilds with a message naming both', { timeout: 180_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-static-cli-'));
  try {
    const model = generateStaticModel(join(root, 'models', 'static'));
    mkdirSync(join(root, '.hearth'));
    const configure = (path: string) => writeFileSync(join(root, '.hearth', 'config.toml'), `[embedding]\nmodel = ${JSON.stringify(path)}\n`);
    configure(model);
    writeFileSync(join(root, 'garden.md'), '# Garden\nWater the tomatoes every morning.\n');
    writeFileSync(join(root, 'coffee.md'), '# Coffee\nGrind the coffee beans before brewing.\n');
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1' };
    const indexed = await runHearth(['index', '--json', '--workspace', root], { cwd: root, env });
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.deepEqual(JSON.parse(indexed.stdout).embedder, { provider: 'local_cpu', model, dimensions: 256 });
    const found = await runHearth(['search', 'coffee beans', '--mode', 'semantic', '--json', '--workspace', root], { cwd: root, env });
    assert.equal(found.code, 0, found.stderr);
    assert.equal(JSON.parse(found.stdout)[0].path, 'coffee.md');

    configure(tinyModelDir());
    const switched = await runHearth(['index', '--json', '--workspace', root], { cwd: root, env });
    assert.equal(switched.code, 0, switched.stderr);
    assert.match(switched.stderr, /rebuilt from scratch: The index was built with local_cpu\/.*static \(256 dims\), not local_cpu\/.*tiny-model \(384 dims\)/);
    const report = JSON.parse(switched.stdout);
    assert.equal(report.embedded, 2);
    assert.equal(report.embedder.dimensions, 384);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
