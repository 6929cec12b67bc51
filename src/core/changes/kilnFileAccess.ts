import { ConfinedFileError } from '../fs/confinedFileError';
import { ConfinedRoot } from '../fs/confinedRoot';
import { asKilnToolError } from '../kiln/tools/kilnPath';

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

/** File access confined to the kiln (no `..`, no absolute paths, no links followed or out): the kiln's ConfinedRoot. */
export function confinedKilnFiles(kiln: ConfinedRoot | string): KilnFileAccess {
  const files = typeof kiln === 'string' ? new ConfinedRoot(kiln) : kiln;
  return {
    async read(path) {
      try {
        return (await files.read(path)).bytes;
      } catch (error) {
        if (error instanceof ConfinedFileError && error.code === 'fs.not_found') return null;
        throw asKilnToolError(error, path);
      }
    },
    async write(path, bytes) {
      await files.write(path, bytes, 'upsert').catch((error: unknown) => Promise.reject(asKilnToolError(error, path)));
    },
    async remove(path) {
      await files.remove(path).catch((error: unknown) => Promise.reject(asKilnToolError(error, path)));
    },
  };
}
