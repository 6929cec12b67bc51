import { lazyCrypto } from '../lazyCrypto';
import { constants } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { HearthError } from '../errors';
import { processStartMs } from './processStart';
import { NOFOLLOW, NONBLOCK } from './rootAnchor';

/**
 * A lock shared by every process on this machine that writes one set of files (the editor, the CLI
 * and the gateway all open the same index and change journal). It is a file created with O_EXCL
 * holding its owner's pid, host and a token. A lock whose owner died (same host, pid gone) is taken
 * over; so is one torn by a crash between its creation and its content once it is `tornMs` old.
 * A lock naming another host is taken over too (issue 30): lock files committed in a repository
 * (`{"pid":4242,"host":"ci-runner-7"}`) made every edit wait and fail, and a kiln shared between
 * machines is not a case Hearth's locks cover. So is one older than the process it names (the pid
 * was reused since, or the file was planted). Every lock broken is said through `notice`.
 */
export interface LockHolder {
  pid: number;
  host: string;
  token: string;
  /** ms since the epoch. */
  since: number;
}

/** What a lock file says about its holder; a planted one may lack the token and time Hearth writes. */
type HolderClaim = Pick<LockHolder, 'pid' | 'host'> & Partial<LockHolder>;

export interface CrossProcessLock {
  readonly path: string;
  /** Removes the lock file if it is still this holder's; safe to call twice. */
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for a live holder before failing with `lock.held`. Default 15 s. */
  waitMs?: number;
  /** Age after which a lock file without a readable holder counts as torn. Default 5 s. */
  tornMs?: number;
  signal?: AbortSignal;
  /** Told (one line) when a stale lock is broken: whose it was and why it counted as stale. */
  notice?: (line: string) => void;
}

export type LockErrorCode = 'lock.held' | 'lock.unwritable';

export class CrossProcessLockError extends HearthError {
  constructor(
    override readonly code: LockErrorCode,
    message: string,
    readonly lockPath: string,
    readonly holder?: LockHolder,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(lockPath: string): Promise<HolderClaim | undefined> {
  try {
    // Never through a link, and never more than a lock's few bytes.
    const handle = await open(lockPath, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    let text: string;
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.size > 4096) return undefined;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isSafeInteger(parsed.pid) && typeof parsed.host === 'string') return parsed as HolderClaim;
  } catch {
    // Missing, empty or half-written: the caller decides by the file's age.
  }
  return undefined;
}

async function olderThan(file: string, ms: number): Promise<boolean> {
  return lstat(file).then((info) => Date.now() - info.mtimeMs > ms, () => false);
}

/** Why the lock counts as stale (its holder cannot be holding it), or undefined while it may be. */
async function staleReason(lockPath: string, holder: HolderClaim | undefined, tornMs: number): Promise<string | undefined> {
  if (holder === undefined) return (await olderThan(lockPath, tornMs)) ? 'it holds no readable owner' : undefined;
  if (holder.host !== hostname()) return `it names another machine (${holder.host.slice(0, 80)}); a lock file copied or committed with the folder is not a running process here`;
  if (holder.pid !== process.pid && !alive(holder.pid)) return `process ${holder.pid} is gone`;
  const written = await lstat(lockPath).then((info) => Math.min(info.mtimeMs, holder.since ?? Infinity), () => undefined);
  const started = processStartMs(holder.pid);
  // A minute's margin: the system clock may be stepped while a lock is held; a planted or reused one is hours older.
  if (written !== undefined && started !== undefined && written < started - 60_000) return `it is older than process ${holder.pid} (the number was reused, or the file was planted)`;
  return undefined;
}

/** One attempt: the lock, or undefined when a live holder has it. Stale locks are broken first. */
export async function tryAcquireLock(lockPath: string, options: Pick<LockOptions, 'tornMs' | 'notice'> = {}): Promise<CrossProcessLock | undefined> {
  const tornMs = options.tornMs ?? 5_000;
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder: LockHolder = { pid: process.pid, host: hostname(), token: lazyCrypto().randomBytes(8).toString('hex'), since: Date.now() };
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(JSON.stringify(holder));
      } finally {
        await handle.close();
      }
      return lockHandle(lockPath, holder.token);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new CrossProcessLockError('lock.unwritable', `Cannot create the lock file ${lockPath}: ${(error as Error).message}`, lockPath, undefined, { cause: error });
    }
    const current = await readHolder(lockPath);
    const reason = await staleReason(lockPath, current, tornMs);
    if (reason === undefined || !(await breakStale(lockPath, current, tornMs))) return undefined;
    options.notice?.(`took over the lock ${lockPath}: ${reason}.`);
  }
  return undefined;
}

/**
 * Removes a stale lock under a second, short-lived lock: two processes that both judged it stale
 * must not both remove it, or the second would remove the lock the first has just taken.
 */
async function breakStale(lockPath: string, judged: HolderClaim | undefined, tornMs: number): Promise<boolean> {
  const breaker = `${lockPath}.break`;
  try {
    await (await open(breaker, 'wx')).close();
  } catch {
    // A breaker left by a process that died while breaking: clear it for the next attempt.
    if (await olderThan(breaker, tornMs)) await unlink(breaker).catch(() => {});
    return false;
  }
  try {
    const now = await readHolder(lockPath);
    const same = now === undefined ? judged === undefined : judged !== undefined && now.token === judged.token && now.pid === judged.pid && now.host === judged.host;
    if (same && (await staleReason(lockPath, now, tornMs)) !== undefined) await unlink(lockPath).catch(() => {});
    return true;
  } finally {
    await unlink(breaker).catch(() => {});
  }
}

function lockHandle(lockPath: string, token: string): CrossProcessLock {
  let released = false;
  return {
    path: lockPath,
    async release() {
      if (released) return;
      released = true;
      const holder = await readHolder(lockPath);
      if (holder?.token === token) await unlink(lockPath).catch(() => {});
    },
  };
}

/** Waits (with backoff) until the lock is free, up to `waitMs`. */
export async function acquireLock(lockPath: string, options: LockOptions = {}): Promise<CrossProcessLock> {
  const deadline = Date.now() + (options.waitMs ?? 15_000);
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    const lock = await tryAcquireLock(lockPath, options);
    if (lock) return lock;
    if (Date.now() > deadline) {
      const holder = await readHolder(lockPath);
      const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
      const known = holder && typeof holder.token === 'string' && typeof holder.since === 'number' ? (holder as LockHolder) : undefined;
      throw new CrossProcessLockError('lock.held', `${lockPath} is locked by ${who}; try again when it is done, or delete the file if no Hearth is running.`, lockPath, known);
    }
    await sleep(Math.min(200, 5 * 2 ** Math.min(attempt, 6)), undefined, { signal: options.signal });
  }
}

/** Runs `work` holding the lock; the lock is released however `work` ends. */
export async function withLock<T>(lockPath: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const lock = await acquireLock(lockPath, options);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
