import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixRange, problemRange } from '../../../src/vscode/config/problemRange';

const text = ['[chat]', 'temperature = 5', '  tempreature = 0.5', '"quoted key" = 1', '[[mcp.servers]]', 'x = [', ''].join('\n');

test('underlines the key at the problem position', () => {
  assert.deepEqual(problemRange({ line: 2, column: 1 }, text), { startLine: 1, startCharacter: 0, endLine: 1, endCharacter: 11 });
});

test('an indented key is underlined from its first character even when the column points at the indentation', () => {
  assert.deepEqual(problemRange({ line: 3, column: 1 }, text), { startLine: 2, startCharacter: 2, endLine: 2, endCharacter: 13 });
  assert.deepEqual(problemRange({ line: 3, column: 3 }, text), { startLine: 2, startCharacter: 2, endLine: 2, endCharacter: 13 });
});

test('quoted keys are one token', () => {
  assert.deepEqual(problemRange({ line: 4, column: 1 }, text), { startLine: 3, startCharacter: 0, endLine: 3, endCharacter: 12 });
});

test('a table header position underlines to the end of the header text', () => {
  assert.deepEqual(problemRange({ line: 5, column: 1 }, text), { startLine: 4, startCharacter: 0, endLine: 4, endCharacter: 15 });
});

test('a position at a value underlines the value', () => {
  assert.deepEqual(problemRange({ line: 2, column: 15 }, text), { startLine: 1, startCharacter: 14, endLine: 1, endCharacter: 15 });
});

test('positions past the end of the file are clamped to the last line; unknown text gives one character', () => {
  const clamped = problemRange({ line: 99, column: 1 }, 'a = 1\nb = 2');
  assert.equal(clamped.startLine, 1);
  assert.deepEqual(problemRange({ line: 3, column: 4 }, undefined), { startLine: 2, startCharacter: 3, endLine: 2, endCharacter: 4 });
  assert.deepEqual(problemRange({}, undefined), { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 1 });
});

test('CRLF files are measured without the carriage return', () => {
  assert.deepEqual(problemRange({ line: 2, column: 1 }, 'x = 1\r\nbad = 2\r\n'), { startLine: 1, startCharacter: 0, endLine: 1, endCharacter: 3 });
});

test('(#29) "Did you mean" carries its quick fix: the misspelt key or provider name and where it sits on the line', async () => {
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { loadConfig } = await import('../../../src/core/config/load');
  const root = mkdtempSync(join(tmpdir(), 'hearth-dym-'));
  try {
    mkdirSync(join(root, '.hearth'));
    const text = '[llm]\ndefault = "locl"\n[llm.providers.local]\ntype = "local_runner"\n[chat]\ntemprature = 0.3\n';
    writeFileSync(join(root, '.hearth', 'config.toml'), text);
    const { problems } = await loadConfig({ trusted: true, workspaceRoot: root, globalConfigPath: join(root, 'none.toml'), env: { HOME: root } });
    const key = problems.find((p) => p.code === 'config.unknown_key')!;
    assert.deepEqual(key.fix, { replace: 'temprature', with: 'temperature' });
    assert.deepEqual(fixRange(key, text), { startLine: 5, startCharacter: 0, endLine: 5, endCharacter: 10 });
    const provider = problems.find((p) => p.code === 'config.unknown_provider')!;
    assert.deepEqual(provider.fix, { replace: 'locl', with: 'local' });
    assert.deepEqual(fixRange(provider, text), { startLine: 1, startCharacter: 11, endLine: 1, endCharacter: 15 });
    // The line no longer holds the word (edited since): no fix offered.
    assert.equal(fixRange(provider, text.replace('"locl"', '"x"')), undefined);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
