import * as fs from 'node:fs';
import * as path from 'node:path';
import { tryAcquireLock } from '../../fs/crossProcessLock';
import { generationFiles, otherGenerations, readManifest, removeOtherGenerations, WRITER_LOCK, type Manifest } from './flatFiles';

const KEYS = ['q8', 'f32', 'meta'] as const;

/**
 * Drops what an interrupted commit left past the committed ends, an interrupted compaction's
 * generation and dead writers' temp manifests — only while holding the writer lock, and only
 * past the ends the manifest on disk *now* records. When a writer is busy it is left for later.
 * `loaded` is the manifest the store just read: most opens find nothing to drop, and looking
 * without the lock first spares them the lock (taking it writes a file and removes it).
 */
export async function trimLeftovers(dir: string, loaded: Manifest, notice?: (line: string) => void): Promise<void> {
  if (!hasLeftovers(dir, loaded)) return;
  const lock = await tryAcquireLock(path.join(dir, WRITER_LOCK), { notice }).catch(() => undefined);
  if (!lock) return;
  try {
    const m = await readManifest(dir);
    if (!m) return;
    const files = generationFiles(dir, m.gen);
    for (const key of KEYS) {
      if (fs.statSync(files[key]).size > m[key].bytes) fs.truncateSync(files[key], m[key].bytes);
    }
    await removeOtherGenerations(dir, m.gen);
  } finally {
    await lock.release();
  }
}

/** Whether the files are longer than the manifest records, or another generation's files lie beside them. */
function hasLeftovers(dir: string, m: Manifest): boolean {
  try {
    const files = generationFiles(dir, m.gen);
    if (KEYS.some((key) => fs.statSync(files[key]).size > m[key].bytes)) return true;
    return otherGenerations(fs.readdirSync(dir), m.gen).length > 0;
  } catch {
    // Unreadable here: the locked pass decides.
    return true;
  }
}
