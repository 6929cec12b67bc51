import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/load';

function scratch(): { dir: string; root: string; global: string; workspace: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-robust-'));
  const root = join(dir, 'ws');
  mkdirSync(join(root, '.hearth'), { recursive: true });
  return { dir, root, global: join(dir, 'global.toml'), workspace: join(root, '.hearth', 'config.toml'), done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a directory where the file should be is a problem, not an exception', async () => {
  const s = scratch();
  try {
    mkdirSync(s.workspace);
    writeFileSync(s.global, '[chat]\ntemperature = 0.2\n');
    const { config, problems, files } = await loadConfig({ trusted: true, workspaceRoot: s.root, globalConfigPath: s.global, env: {} });
    assert.equal(config.chat.temperature, 0.2);
    assert.deepEqual(problems.map((p) => [p.code, p.file]), [['config.unreadable_file', s.workspace]]);
    assert.deepEqual(files, { global: s.global, workspace: s.workspace });
  } finally {
    s.done();
  }
});

test('a syntax error in one file leaves the other file applied', async () => {
  const s = scratch();
  try {
    writeFileSync(s.global, '[chat\ntemperature = 0.2\n');
    writeFileSync(s.workspace, '[cli]\nverbose = true\n');
    const { config, problems, sources } = await loadConfig({ trusted: true, workspaceRoot: s.root, globalConfigPath: s.global, env: {} });
    assert.equal(config.cli.verbose, true);
    assert.equal(sources['cli.verbose'], 'workspace');
    const syntax = problems.find((p) => p.code === 'config.toml_syntax');
    assert.equal(syntax?.file, s.global);
    assert.equal(syntax?.line, 1);
  } finally {
    s.done();
  }
});

test('random bytes never make loadConfig reject', async () => {
  const s = scratch();
  try {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = '[]{}="\'#.,\n _-abc123xyz\\\u0000\u00ff';
    for (let i = 0; i < 60; i++) {
      const text = Array.from({ length: 20 + Math.floor(random() * 200) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      writeFileSync(s.workspace, text);
      const loaded = await loadConfig({ trusted: true, workspaceRoot: s.root, globalConfigPath: s.global, env: {} });
      assert.equal(typeof loaded.config.chat.temperature, 'number');
      for (const p of loaded.problems) assert.ok(p.message.length > 0 && p.code.length > 0);
    }
  } finally {
    s.done();
  }
});

test('a prefix clash between the two files is reported on the later entry and that entry dropped', async () => {
  const s = scratch();
  try {
    writeFileSync(s.global, '[[mcp.servers]]\nname = "g"\nprefix = "x_"\ntransport = { type = "stdio", command = "a" }\n');
    writeFileSync(s.workspace, '# ws\n[[mcp.servers]]\nname = "w"\nprefix = "x_"\ntransport = { type = "stdio", command = "b" }\n');
    const { config, problems } = await loadConfig({ trusted: true, workspaceRoot: s.root, globalConfigPath: s.global, env: {} });
    assert.deepEqual(config.mcp.servers.map((x) => x.name), ['g']);
    assert.deepEqual(problems.map((p) => [p.file, p.line, p.keyPath, p.code]), [[s.workspace, 4, 'mcp.servers[0].prefix', 'config.duplicate']]);
  } finally {
    s.done();
  }
});

test('problems come sorted by file and line, and print as file:line:col: severity: message', async () => {
  const s = scratch();
  try {
    writeFileSync(s.global, '[chat]\ntemperature = 7\n');
    writeFileSync(s.workspace, '[llm]\ndefault = "nope"\n[cli]\nverbos = true\n[chat]\nmax_tokens = 0\n');
    const { problems } = await loadConfig({ trusted: true, workspaceRoot: s.root, globalConfigPath: s.global, env: { LOCAL_RUNNER_HOST: 'ftp://x' } });
    const { formatConfigProblem } = await import('../../../src/core/config/problem');
    const lines = problems.map(formatConfigProblem);
    assert.equal(lines.length, 5);
    assert.match(lines[0], new RegExp(`^${s.global.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:1: error: `));
    assert.deepEqual(problems.map((p) => [p.line, p.code]), [[2, 'config.invalid_value'], [2, 'config.unknown_provider'], [4, 'config.unknown_key'], [6, 'config.invalid_value'], [undefined, 'config.env_override']]);
    assert.match(lines[4], /^environment: warning: LOCAL_RUNNER_HOST/);
  } finally {
    s.done();
  }
});
