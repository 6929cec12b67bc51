// The built `hearth` bin (dist/cli.js, from `npm run build`): a node shebang, executable, and every
// command listed by `hearth --help` answers its own --help. Skipped before the first build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

const BIN = resolve('dist/cli.js');

test('dist/cli.js: shebang, executable, every command has --help', { skip: !existsSync(BIN) && 'run npm run build first' }, () => {
  assert.equal(readFileSync(BIN, 'utf8').split('\n', 1)[0], '#!/usr/bin/env node');
  if (process.platform !== 'win32') assert.ok(statSync(BIN).mode & 0o111, 'executable');
  const env = { ...process.env, XDG_CONFIG_HOME: resolve('test/fixtures/none'), XDG_CACHE_HOME: resolve('test/fixtures/none') };
  const help = execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', env });
  const commands = [...help.matchAll(/^ {2}([a-z-]+) {2,}\S/gm)].map((m) => m[1]);
  assert.ok(commands.includes('config') && commands.length >= 5, help);
  for (const command of commands) {
    const result = spawnSync(process.execPath, [BIN, command, '--help'], { encoding: 'utf8', env, timeout: 30_000 });
    assert.equal(result.status, 0, `${command} --help: ${result.stderr}`);
    assert.match(result.stdout, new RegExp(`Usage: hearth ${command}`), `${command} --help`);
  }
});
