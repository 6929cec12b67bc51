import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, CrossProcessLockError, tryAcquireLock, withLock } from '../../../../src/core/fs/crossProcessLock';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'hearth-lock-'));
}

test('processes taking turns under the lock lose no update', { timeout: 60_000 }, async () => {
  const dir = scratch();
  try {
    const counter = join(dir, 'counter');
    writeFileSync(counter, '0');
    const children = [1, 2, 3].map(
      () =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'lockCounter.ts'), join(dir, 'lock'), counter, '25'], { stdio: 'inherit' });
          child.on('exit', resolve);
        }),
    );
    assert.deepEqual(await Promise.all(children), [0, 0, 0]);
    assert.equal(readFileSync(counter, 'utf8'), '75');
    assert.equal(existsSync(join(dir, 'lock')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lock held by a live process is waited for, then reported with its holder', async () => {
  const dir = scratch();
  try {
    const lockPath = join(dir, 'lock');
    const held = await acquireLock(lockPath);
    assert.equal(await tryAcquireLock(lockPath), undefined);
    await assert.rejects(acquireLock(lockPath, { waitMs: 50 }), (error: unknown) => error instanceof CrossProcessLockError && error.code === 'lock.held' && error.holder?.pid === process.pid);
    await held.release();
    const next = await tryAcquireLock(lockPath);
    assert.ok(next);
    await next.release();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lock left by a dead process, torn by a crash, or naming another machine is taken over', async () => {
  const dir = scratch();
  try {
    const lockPath = join(dir, 'lock');
    writeFileSync(lockPath, JSON.stringify({ pid: 2 ** 22 + 777, host: hostname(), token: 'dead', since: 0 }));
    const taken = await tryAcquireLock(lockPath);
    assert.ok(taken, 'dead holder taken over');
    assert.notEqual(JSON.parse(readFileSync(lockPath, 'utf8')).token, 'dead');
    await taken.release();

    writeFileSync(lockPath, '');
    assert.equal(await tryAcquireLock(lockPath), undefined, 'a fresh empty lock may be a holder still writing it');
    utimesSync(lockPath, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const torn = await tryAcquireLock(lockPath);
    assert.ok(torn, 'an old empty lock is torn');
    await torn.release();

    // Another host's lock is broken with a notice (issue 30: lock files committed in a repository);
    // so is one without Hearth's token and time, as a committed file has.
    for (const planted of [{ pid: 2 ** 22 + 777, host: `${hostname()}-elsewhere`, token: 'remote', since: 0 }, { pid: 4242, host: 'ci-runner-7' }]) {
      writeFileSync(lockPath, JSON.stringify(planted));
      const notices: string[] = [];
      const remote = await tryAcquireLock(lockPath, { notice: (line) => notices.push(line) });
      assert.ok(remote, `${JSON.stringify(planted)} taken over`);
      assert.match(notices.join('\n'), /another machine/);
      await remote.release();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('release never removes a lock that another holder now owns', async () => {
  const dir = scratch();
  try {
    const lockPath = join(dir, 'lock');
    const mine = await acquireLock(lockPath);
    writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), token: 'someone-else', since: Date.now() }));
    await mine.release();
    assert.ok(existsSync(lockPath));
    await assert.rejects(withLock(lockPath, async () => 1, { waitMs: 20 }), CrossProcessLockError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lock naming a live process but older than it (a reused pid, or a planted file) is taken over with a notice', { skip: process.platform !== 'linux' ? '/proc is Linux only' : false }, async () => {
  const dir = scratch();
  try {
    const lockPath = join(dir, 'lock');
    // This process is alive; a lock from before it started cannot be its.
    writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), token: 'planted', since: Date.now() - 3_600_000 }));
    const notices: string[] = [];
    const taken = await tryAcquireLock(lockPath, { notice: (line) => notices.push(line) });
    assert.ok(taken);
    assert.match(notices.join('\n'), /older than process/);
    await taken.release();
    // The same file written now is a live holder's: waited for.
    writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), token: 'live', since: Date.now() }));
    assert.equal(await tryAcquireLock(lockPath), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
