import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The core must stay editor-free so the CLI and unit tests can run it (DESIGN.md "Layout").
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|mts|cts|js)$/.test(name) ? [path] : [];
  });
}

test('nothing under src/core imports vscode', () => {
  const offenders = sources('src/core').filter((file) =>
    /(from\s+['"]vscode['"])|(require\(\s*['"]vscode['"]\s*\))|(import\(\s*['"]vscode['"]\s*\))/.test(readFileSync(file, 'utf8')),
  );
  assert.deepEqual(offenders, []);
});

test('the check itself catches an import of vscode', () => {
  assert.match("import * as vscode from 'vscode';", /from\s+['"]vscode['"]/);
});
