/**
 * Hostile config files: the locator runs on activation and on every save, so its work is linear in
 * the source (counted in steps, not timed), deep nesting stops with a located problem, only regular
 * files of at most MAX_CONFIG_BYTES are read (a FIFO must not hang loading), and prototype keys are
 * reported where written while the rest of the file applies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_KEY_DEPTH, TomlLocator } from '../../../src/core/config/tomlLocator';
import { MAX_CONFIG_BYTES } from '../../../src/core/config/parseToml';
import { loadConfig } from '../../../src/core/config/load';

const STEPS_PER_CHAR = 6;

async function loadWorkspace(body: string | ((file: string) => void)) {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-hostile-config-'));
  try {
    mkdirSync(join(dir, '.hearth'));
    const file = join(dir, '.hearth', 'config.toml');
    if (typeof body === 'string') writeFileSync(file, body);
    else body(file);
    return { file, ...(await loadConfig({ trusted: true, workspaceRoot: dir, globalConfigPath: join(dir, 'none.toml'), env: {} })) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('nested arrays 2 000 deep and a dotted key of 50 000 segments stop at the depth limit, located', async () => {
  const cases = [
    { source: 'a = ' + '['.repeat(2000) + ']'.repeat(2000), line: 1 },
    { source: 'x = 1\nb = ' + '{ c = '.repeat(2000) + '1' + ' }'.repeat(2000), line: 2 },
    { source: 'a' + '.a'.repeat(50_000) + ' = 1', line: 1 },
    { source: '[' + 'a.'.repeat(50_000) + 'a]\nx = 1', line: 1 },
  ];
  for (const { source, line } of cases) {
    const locator = new TomlLocator(source);
    assert.equal(locator.limit?.line, line, source.slice(0, 20));
    assert.ok(locator.limit!.column < 8 * MAX_KEY_DEPTH, 'stopped near the limit, not at the end');
    assert.ok(locator.steps <= 8 * MAX_KEY_DEPTH + 20, `${locator.steps} steps: the rest was not worked on`);
  }
  const { problems, file, config } = await loadWorkspace('[chat]\ntemperature = 0.3\nz = ' + '['.repeat(2000) + ']'.repeat(2000));
  assert.deepEqual(problems.map((p) => [p.code, p.file, p.line]), [['config.too_deep', file, 3]]);
  assert.match(problems[0].message, /deeper than 64 levels/);
  assert.equal(config.chat.temperature, 0.7, 'the file is ignored as a whole');
});

test('legal but large sources are located in linear steps (1 MB of keys, one long inline line)', () => {
  const deepKey = Array.from({ length: MAX_KEY_DEPTH - 1 }, (_, i) => `k${i}`).join('.');
  const sources = [
    Array.from({ length: 2000 }, (_, i) => `${deepKey}.v${i} = ${i}`).join('\n'),
    'a = {' + Array.from({ length: 60_000 }, (_, i) => `k${i} = 1`).join(', ') + '}',
    'a = [' + '[1], '.repeat(100_000) + ']',
    Array.from({ length: 20_000 }, (_, i) => `[[t${i % 7}.s]]\nx = "${i}"`).join('\n'),
  ];
  for (const source of sources) {
    const locator = new TomlLocator(source);
    assert.equal(locator.limit, undefined);
    assert.ok(locator.steps <= STEPS_PER_CHAR * source.length, `${locator.steps} steps for ${source.length} chars`);
  }
  const located = new TomlLocator(sources[0]);
  assert.deepEqual(located.exact([...deepKey.split('.'), 'v1999']), { line: 2000, column: 1 });
});

test('a FIFO at .hearth/config.toml is refused at once, not waited on', { timeout: 20_000 }, async () => {
  const { problems, file } = await loadWorkspace((path) => execFileSync('mkfifo', [path]));
  assert.deepEqual(problems.map((p) => [p.code, p.file]), [['config.unreadable_file', file]]);
  assert.match(problems[0].message, /not a regular file/);
});

test('a config file over the size limit is refused, naming the limit', async () => {
  const { problems, file } = await loadWorkspace('# padding\n'.repeat(MAX_CONFIG_BYTES / 10 + 1));
  assert.deepEqual(problems.map((p) => [p.code, p.file]), [['config.unreadable_file', file]]);
  assert.match(problems[0].message, /over the 1048576-byte limit/);
});

test('__proto__ and constructor keys are located problems; the rest of the file applies; nothing is polluted', async () => {
  const { problems, config } = await loadWorkspace(
    ['__proto__ = { polluted = 1 }', '[chat]', 'temperature = 0.25', 'constructor = 2', '[llm.providers.__proto__]', 'type = "openai"', '[constructor]', 'x = 1'].join('\n'),
  );
  assert.deepEqual(
    problems.map((p) => [p.code, p.keyPath, p.line, p.column]),
    [
      ['config.unsafe_key', '__proto__', 1, 1],
      ['config.unsafe_key', 'chat.constructor', 4, 1],
      ['config.unsafe_key', 'llm.providers.__proto__', 5, 1],
      ['config.unsafe_key', 'constructor', 7, 1],
    ],
  );
  assert.equal(config.chat.temperature, 0.25);
  assert.deepEqual(Object.keys(config.llm.providers), []);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
