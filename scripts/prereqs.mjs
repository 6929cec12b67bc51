// `npm start` and `npm test` run this first: what the command needs beyond Node.js is checked before
// anything slow starts. Missing system packages are installed with apt-get when that can be done
// without a question (root, or sudo without a password), as .ci/run does; otherwise it stops at once
// with one line naming them. node_modules is installed when absent (onnxruntime-node's CUDA download
// skipped: Hearth runs ONNX on the CPU).
//
//   node scripts/prereqs.mjs start|test        HEARTH_SKIP_PREREQS=1 skips the check.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2];
if (command !== 'start' && command !== 'test') {
  console.error('usage: node scripts/prereqs.mjs start|test');
  process.exit(2);
}
if (process.env.HEARTH_SKIP_PREREQS === '1') process.exit(0);

const onPath = (name) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));

/** apt package → how to tell it is there without dpkg (other distributions, containers). */
const PACKAGES = {
  ripgrep: () => onPath('rg'),
  'libkrb5-dev': () => ['/usr/include/krb5.h', '/usr/include/krb5/krb5.h'].some(existsSync) || onPath('krb5-config'),
  chromium: () => Boolean(process.env.HEARTH_CHROMIUM) || ['chromium', 'chromium-browser', 'google-chrome'].some(onPath),
};

function needed() {
  // The desktop `code` needs nothing more; code-server (both editors of the matrix, installed into
  // .e2e/ by test/e2e/setup.mjs, the newer one with its own Node 24 from the npm registry) needs
  // ripgrep at run time and libkrb5-dev to build its install. The end-to-end tests drive it from
  // Chromium.
  if (command === 'start') {
    if (onPath('code') && !process.env.HEARTH_LAUNCH_CODE_SERVER) return [];
    return ['ripgrep', 'libkrb5-dev'];
  }
  return ['chromium', 'libkrb5-dev', 'ripgrep'];
}

function canApt() {
  if (!onPath('apt-get')) return undefined;
  if (process.getuid?.() === 0) return [];
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo'];
  return undefined;
}

const missing = needed().filter((pkg) => !PACKAGES[pkg]());
if (missing.length > 0) {
  const prefix = canApt();
  if (!prefix) {
    console.error(`npm ${command} needs these packages: ${missing.join(' ')} (e.g. sudo apt-get install ${missing.join(' ')}); HEARTH_SKIP_PREREQS=1 skips this check`);
    process.exit(1);
  }
  console.log(`[prereqs] installing ${missing.join(' ')} with apt-get`);
  const apt = (args) => {
    const [cmd, ...rest] = [...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args];
    return spawnSync(cmd, rest, { stdio: 'inherit' }).status === 0;
  };
  if (!apt(['update', '-qq']) || !apt(['install', '-y', '-qq', ...missing])) {
    console.error(`npm ${command}: apt-get could not install ${missing.join(' ')}; install them and run it again`);
    process.exit(1);
  }
}

if (!existsSync(join(repo, 'node_modules'))) {
  console.log('[prereqs] npm install');
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: repo, stdio: 'inherit', env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
  if (install.status !== 0) {
    console.error(`npm ${command}: npm install failed (exit ${install.status ?? install.signal}); check that the npm registry answers (npm ping; behind a proxy, npm config set proxy …), then run it again. npm's own output is above.`);
    process.exit(1);
  }
}
