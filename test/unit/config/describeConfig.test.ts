import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { formatEffectiveConfig, MASKED_SECRET } from '../../../src/core/config/describeConfig';
import { loadConfig } from '../../../src/core/config/load';

test('the effective config prints as TOML with a source per value, and parses back to the same config', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-describe-'));
  try {
    const root = join(dir, 'ws');
    mkdirSync(join(root, '.hearth'), { recursive: true });
    writeFileSync(join(dir, 'g.toml'), '[chat]\ntemperature = 0.3\n[acp.agents.mine]\ncommand = "x"\nenv = { TOKEN = "{env:T}" }\n');
    writeFileSync(join(root, '.hearth', 'config.toml'), [
      '[llm.providers.work]', 'type = "openai"', 'api_key = "sk-secret-literal"',
      '[[mcp.servers]]', 'name = "fs"', 'prefix = "fs_"', '[mcp.servers.transport]', 'type = "stdio"', 'command = "npx"', 'env = { A = "1" }',
      '[[mcp.servers]]', 'name = "w"', 'prefix = "w_"', 'transport = { type = "sse", url = "http://127.0.0.1:1/sse" }',
    ].join('\n'));
    const loaded = await loadConfig({ trusted: true, workspaceRoot: root, globalConfigPath: join(dir, 'g.toml'), env: { HEARTH_KILN_PATH: '/kiln' } });
    const text = formatEffectiveConfig(loaded);
    assert.match(text, /^temperature = 0\.3 {2}# global$/m);
    assert.match(text, /^max_tokens = 2048 {2}# default$/m);
    assert.match(text, /^kiln_path = "\/kiln" {2}# env$/m);
    assert.match(text, /^type = "cloud_a" {2}# workspace$/m);
    assert.ok(!text.includes('sk-secret-literal'), 'a plain-text key is masked');
    const reparsed = JSON.parse(JSON.stringify(parse(text)));
    const expected = JSON.parse(JSON.stringify(loaded.config));
    expected.llm.providers.work.api_key = MASKED_SECRET;
    // Every literal in an env table is masked, whatever its name (issue 12).
    expected.mcp.servers[0].transport.env.A = MASKED_SECRET;
    assert.deepEqual(reparsed, expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an all-defaults config (empty tables and arrays included) round-trips too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-describe-'));
  try {
    const loaded = await loadConfig({ trusted: true, workspaceRoot: dir, globalConfigPath: join(dir, 'none.toml'), env: {} });
    const text = formatEffectiveConfig(loaded);
    assert.deepEqual(JSON.parse(JSON.stringify(parse(text))), JSON.parse(JSON.stringify(loaded.config)));
    assert.ok(!text.includes('# problems'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
