import { ConfinedFileError } from '../fs/confinedFileError';
import { confinePath } from '../fs/confinedPath';
import { ConfinedRoot } from '../fs/confinedRoot';
import { ProtectedPaths, type ProtectedPathRules } from '../fs/protectedPaths';
import { WriteGate, type ProtectedWriteConfirm, type ProtectedWriteRequest } from '../fs/writeGate';
import { asKilnToolError } from '../kiln/tools/kilnPath';

/** What the kiln's protected paths are and who can be asked about them (DESIGN.md decision 15). */
export interface KilnWriteProtection {
  /** The configured part (`kilnProtection(config, …)`); the built-in list applies anyway. */
  rules?: Omit<ProtectedPathRules, 'root'>;
  /** The host's question; absent: nobody can be asked, so every protected write is refused. */
  confirmProtected?: ProtectedWriteConfirm;
}

/**
 * How the journal and undo reach notes: through the kiln's write gate (confined, protected paths
 * asked), never through raw paths, so an undo cannot be steered outside the kiln, nor into
 * `.git/config` without the user's own answer (issue 30).
 */
export interface KilnFileAccess {
  /** The file's bytes, or null when it does not exist. */
  read(path: string): Promise<Uint8Array | null>;
  /** Atomic, confined write (temp file + rename); a protected path only after `confirmProtected` allowed it. */
  write(path: string, bytes: Uint8Array): Promise<void>;
  /** Confined delete; a missing file is not an error; a protected path as for `write`. */
  remove(path: string): Promise<void>;
  /**
   * Asks about one write of a protected path — every time, whatever `--yes` or confirm_destructive
   * say, and refused where nobody can be asked — before any lock is taken (a question must not hold
   * the journal). The next write or remove of that path goes ahead; an ordinary path passes at once.
   */
  confirmProtected(path: string, action: ProtectedWriteRequest['action'], actor?: string): Promise<void>;
}

/** File access confined to the kiln (no `..`, no absolute paths, no links followed or out): the kiln's ConfinedRoot behind a write gate. */
export function confinedKilnFiles(kiln: ConfinedRoot | string, protection: KilnWriteProtection = {}): KilnFileAccess {
  const files = typeof kiln === 'string' ? new ConfinedRoot(kiln) : kiln;
  const approved = new Set<string>();
  // Inside the gate only what was allowed just before passes; anything else is refused unasked.
  const once: ProtectedWriteConfirm = async (request) => (approved.delete(request.path) ? true : undefined);
  const gate = new WriteGate({ files, protectedPaths: new ProtectedPaths({ root: files.root, ...protection.rules }), confirmProtected: once });
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
      await gate.write(path, bytes, { mode: 'upsert' }).catch((error: unknown) => Promise.reject(asKilnToolError(error, path)));
    },
    async remove(path) {
      await gate.remove(path).catch((error: unknown) => Promise.reject(asKilnToolError(error, path)));
    },
    async confirmProtected(path, action, actor) {
      const rel = confinePath(path).relative;
      if (!gate.protectedReason(rel)) return;
      await gate.checkProtected(rel, action, actor, protection.confirmProtected);
      approved.add(rel);
    },
  };
}
