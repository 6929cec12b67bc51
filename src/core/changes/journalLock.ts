import { open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ChangeError } from './changeErrors';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `work` while holding `lockPath` (an O_EXCL file with the holder's pid): the editor, the CLI
 * and the gateway may write to one kiln at once. A lock left by a process that died is taken over.
 */
export async function withJournalLock<T>(lockPath: string, work: () => Promise<T>, waitMs = 15_000): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname() }));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await readFile(lockPath, 'utf8').then((text) => JSON.parse(text) as { pid?: number; host?: string }).catch(() => undefined);
      // A holder that died, or a lock file torn by a crash between its creation and its content.
      const torn = holder === undefined && (await stat(lockPath).then((info) => Date.now() - info.mtimeMs > 5_000).catch(() => false));
      const stale = torn || (holder !== undefined && holder.host === hostname() && typeof holder.pid === 'number' && !alive(holder.pid));
      if (stale) {
        await unlink(lockPath).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) {
        throw new ChangeError('changes.locked', `The change journal is locked by another Hearth process (${lockPath}); try again, or delete the file if no Hearth is running.`);
      }
      await sleep(Math.min(200, 10 * 2 ** Math.min(attempt, 5)));
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => {});
  }
}
