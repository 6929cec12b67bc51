// A failed code-server install (#29) ends in one line saying what failed and what to do, never a
// stack trace: the formatter, and the real installer (test/e2e/setup.mjs, copied into a scratch
// checkout so its .e2e/ is empty) run against an npm registry that cannot be reached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeServerInstallError, EDITORS, installFailureLine } from '../../e2e/setup.mjs';

test('the line names the editor, what failed and the remedy; an unexpected error gives its first line only', () => {
  const failed = new CodeServerInstallError('setup.npm_install_failed', 'npm install code-server@4.100.3 failed: npm install failed (exit 1)', 'Check that the npm registry answers (`npm ping`), then run it again.');
  assert.equal(
    installFailureLine(failed, '1.100'),
    'could not install code-server 4.100.3 (VS Code 1.100): npm install code-server@4.100.3 failed: npm install failed (exit 1). Check that the npm registry answers (`npm ping`), then run it again.',
  );
  const disk = Object.assign(new Error('ENOSPC: no space left on device, write\n    at writeFileSync (node:fs:2400:3)\n    at ensureCodeServer (setup.mjs:180:3)'), { code: 'ENOSPC' });
  const line = installFailureLine(disk, '1.139');
  assert.match(line, /^could not install code-server 4\.139\.1 \(VS Code 1\.139\): ENOSPC: no space left on device, write\. Check free disk space and that .*\.e2e can be written, then run it again\.$/);
  assert.doesNotMatch(line, /\n|\bat /);
});

test('setup.mjs against an unreachable registry: exit 1, its last line says what failed and what to do, no stack trace', { timeout: 120_000 }, () => {
  const checkout = mkdtempSync(join(tmpdir(), 'hearth-setup-fail-'));
  try {
    mkdirSync(join(checkout, 'test', 'e2e'), { recursive: true });
    copyFileSync(join('test', 'e2e', 'setup.mjs'), join(checkout, 'test', 'e2e', 'setup.mjs'));
    const env = {
      ...process.env,
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_cache: join(checkout, 'npm-cache'),
      npm_config_update_notifier: 'false',
    };
    const run = spawnSync(process.execPath, [join(checkout, 'test', 'e2e', 'setup.mjs'), '1.100'], { env, encoding: 'utf8', timeout: 110_000 });
    assert.equal(run.status, 1, run.stderr);
    const last = run.stderr.trim().split('\n').pop() ?? '';
    if (existsSync('/usr/bin/rg')) {
      assert.equal(
        last,
        `[e2e setup] could not install code-server ${EDITORS['1.100'].codeServer} (VS Code 1.100): npm install code-server@${EDITORS['1.100'].codeServer} failed: ` +
          'npm install --ignore-scripts --no-audit --no-fund --loglevel=error failed (exit 1). Check that the npm registry answers (`npm ping`; behind a proxy, `npm config set proxy …`), then run it again; npm\'s own output is above.',
      );
    } else {
      assert.match(last, /^\[e2e setup\] could not install code-server .*: code-server needs ripgrep .*apt-get install -y ripgrep/);
    }
    assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
    assert.equal(existsSync(join(checkout, '.e2e', 'code-server', '.installed-version')), false, 'not marked installed');
  } finally {
    rmSync(checkout, { recursive: true, force: true });
  }
});
