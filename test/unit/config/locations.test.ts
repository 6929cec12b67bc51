import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findWorkspaceRoot, globalConfigPath, workspaceConfigPath } from '../../../src/core/config/locations';

test('global config on Linux uses an absolute XDG_CONFIG_HOME, else ~/.config', () => {
  assert.equal(globalConfigPath({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/u'), '/x/cfg/hearth/config.toml');
  assert.equal(globalConfigPath({}, 'linux', '/home/u'), '/home/u/.config/hearth/config.toml');
  // A relative XDG_CONFIG_HOME is invalid per the XDG spec and ignored.
  assert.equal(globalConfigPath({ XDG_CONFIG_HOME: 'rel/cfg' }, 'linux', '/home/u'), '/home/u/.config/hearth/config.toml');
});

test('global config on macOS is under Application Support, whatever XDG says', () => {
  assert.equal(globalConfigPath({ XDG_CONFIG_HOME: '/x' }, 'darwin', '/Users/u'), '/Users/u/Library/Application Support/hearth/config.toml');
});

test('global config on Windows is under %APPDATA%, with a fallback', () => {
  assert.equal(globalConfigPath({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Roaming\\hearth\\config.toml');
  assert.equal(globalConfigPath({}, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Roaming\\hearth\\config.toml');
});

test('workspace config is .hearth/config.toml under the root', () => {
  assert.equal(workspaceConfigPath('/w/proj'), join('/w/proj', '.hearth', 'config.toml'));
});

test('findWorkspaceRoot picks the first folder with a config, else the first folder', () => {
  const base = mkdtempSync(join(tmpdir(), 'hearth-loc-'));
  try {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => join(base, n));
    for (const dir of [a, b, c]) mkdirSync(dir);
    assert.equal(findWorkspaceRoot([a, b, c]), a);
    mkdirSync(join(c, '.hearth'));
    writeFileSync(join(c, '.hearth', 'config.toml'), '');
    assert.equal(findWorkspaceRoot([a, b, c]), c);
    // A directory named config.toml does not count.
    mkdirSync(join(b, '.hearth', 'config.toml'), { recursive: true });
    assert.equal(findWorkspaceRoot([a, b, c]), c);
    assert.equal(findWorkspaceRoot([]), undefined);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
