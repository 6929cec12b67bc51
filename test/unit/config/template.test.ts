import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { loadConfig } from '../../../src/core/config/load';
import { HearthConfigSchema } from '../../../src/core/config/schema';
import { configTemplate } from '../../../src/core/config/template';

/** Uncomments every line that is a commented-out table header or `key = value` (not the prose). */
function uncommentAll(template: string): string {
  return template
    .split('\n')
    .map((line) => {
      const match = /^# (\[\[?[A-Za-z0-9_.-]+\]\]?\s*|[A-Za-z0-9_]+ = .*)$/.exec(line);
      return match ? match[1] : line;
    })
    .join('\n');
}

for (const scope of ['workspace', 'global'] as const) {
  test(`the ${scope} template parses and validates with zero problems`, () => {
    const raw = parse(configTemplate(scope));
    const result = HearthConfigSchema.safeParse(raw);
    assert.equal(result.success, true, JSON.stringify(result.error?.issues));
  });

  test(`every commented option of the ${scope} template is valid once uncommented`, () => {
    const raw = parse(uncommentAll(configTemplate(scope))) as Record<string, unknown>;
    const result = HearthConfigSchema.safeParse(raw);
    assert.equal(result.success, true, JSON.stringify(result.error?.issues));
    // The uncommented template really exercises every section.
    for (const section of ['chat', 'llm', 'embedding', 'context', 'cli', 'acp', 'mcp', 'processing', 'logging']) {
      assert.ok(section in raw, `section [${section}] missing from the template`);
    }
    const config = result.data!;
    assert.equal(config.mcp.servers.length, 2);
    assert.deepEqual(config.mcp.servers.map((s) => s.transport.type), ['stdio', 'http']);
    assert.equal(config.llm.default, 'local');
    assert.ok(config.acp.agents['my-claude']?.env?.ANTHROPIC_API_KEY);
  });
}

test('written as both files, the templates load with zero problems and the live example applies', async () => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-template-'));
  try {
    await mkdir(join(root, 'ws', '.hearth'), { recursive: true });
    await writeFile(join(root, 'ws', '.hearth', 'config.toml'), configTemplate('workspace'));
    await writeFile(join(root, 'global.toml'), configTemplate('global'));
    const loaded = await loadConfig({ trusted: true, workspaceRoot: join(root, 'ws'), env: {}, globalConfigPath: join(root, 'global.toml') });
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.config.kiln_path, join(root, 'ws'));
    assert.equal(loaded.sources['kiln_path'], 'workspace');
    assert.equal(loaded.sources['chat.provider'], 'workspace');
    assert.equal(loaded.sources['chat.temperature'], 'default');

    // The fully uncommented template is a valid configuration too (loader checks included).
    await writeFile(join(root, 'ws', '.hearth', 'config.toml'), uncommentAll(configTemplate('workspace')));
    const full = await loadConfig({ trusted: true, workspaceRoot: join(root, 'ws'), env: {}, globalConfigPath: join(root, 'global.toml') });
    assert.deepEqual(full.problems, []);
    assert.equal(full.config.mcp.servers.length, 2);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('every key of the schema appears in the template', () => {
  const text = configTemplate('workspace');
  const shape = HearthConfigSchema.shape;
  const missing: string[] = [];
  for (const [key, schema] of Object.entries(shape)) {
    if (!text.includes(`${key} =`) && !text.includes(`[${key}]`) && !text.includes(`[[${key}.`)) missing.push(key);
    // Walk one level into each section (prefault/optional wrappers hide the object shape).
    const inner = unwrapShape(schema);
    for (const sub of Object.keys(inner ?? {})) {
      if (key === 'llm' && sub === 'providers') continue;
      if (key === 'acp' && sub === 'agents') continue;
      if (key === 'mcp' && sub === 'servers') continue;
      if (!new RegExp(`^#? ?${sub} =`, 'm').test(text)) missing.push(`${key}.${sub}`);
    }
  }
  assert.deepEqual(missing, []);
});

function unwrapShape(schema: unknown): Record<string, unknown> | undefined {
  let current = schema as { shape?: Record<string, unknown>; def?: { innerType?: unknown; in?: unknown; schema?: unknown } } | undefined;
  for (let i = 0; i < 6 && current; i++) {
    if (current.shape) return current.shape;
    current = (current.def?.innerType ?? current.def?.in ?? current.def?.schema) as typeof current;
  }
  return undefined;
}
