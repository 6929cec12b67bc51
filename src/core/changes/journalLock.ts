import { CrossProcessLockError, withLock } from '../fs/crossProcessLock';
import { ChangeError } from './changeErrors';

/**
 * Runs `work` while holding the journal's cross-process lock: the editor, the CLI and the gateway
 * may write to one kiln at once. A lock left by a process that died, by another machine, or older
 * than the process it names is broken, and `notice` says so.
 */
export async function withJournalLock<T>(lockPath: string, work: () => Promise<T>, options: { waitMs?: number; notice?: (line: string) => void } = {}): Promise<T> {
  try {
    return await withLock(lockPath, work, { waitMs: options.waitMs ?? 15_000, notice: options.notice });
  } catch (error) {
    if (error instanceof CrossProcessLockError && error.code === 'lock.held') {
      throw new ChangeError('changes.locked', `The change journal is locked by another Hearth process (${lockPath}); try again, or delete the file if no Hearth is running.`, { cause: error });
    }
    throw error;
  }
}
