import { mkdir, readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { resolveKilnPath } from '../kiln/tools/kilnPath';
import { writeAtomic } from './journalFiles';

/**
 * How the journal and undo reach notes: through the kiln's confined file access (the write gate),
 * never through raw paths, so an undo cannot be steered outside the kiln either.
 */
export interface KilnFileAccess {
  /** The file's bytes, or null when it does not exist. */
  read(path: string): Promise<Uint8Array | null>;
  /** Atomic, confined write (temp file + rename). */
  write(path: string, bytes: Uint8Array): Promise<void>;
  /** Confined delete; a missing file is not an error. */
  remove(path: string): Promise<void>;
}

/** File access confined to the kiln (no `..`, no absolute paths, no symlinks out). */
export function confinedKilnFiles(kilnRoot: string): KilnFileAccess {
  return {
    async read(path) {
      const where = await resolveKilnPath(kilnRoot, path);
      try {
        return await readFile(where.absolute);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async write(path, bytes) {
      const where = await resolveKilnPath(kilnRoot, path);
      await mkdir(dirname(where.absolute), { recursive: true });
      await writeAtomic(where.absolute, bytes);
    },
    async remove(path) {
      await unlink((await resolveKilnPath(kilnRoot, path)).absolute).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
  };
}
