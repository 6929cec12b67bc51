import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../host';
import { lazyCrypto } from '../lazyCrypto';
import { ConfinedFileError } from '../fs/confinedFileError';
import { isMissing, NOFOLLOW, NONBLOCK, RootAnchor, type OpenDir } from '../fs/rootAnchor';
import { ChangeError } from './changeErrors';

export function sha256(bytes: Uint8Array): string {
  return lazyCrypto().createHash('sha256').update(bytes).digest('hex');
}

export type JournalFolder = 'entries' | 'blobs';

/** The name a journal write gives its temp file: a kill -9 leaves it, and a later writer removes it by this shape. */
export const TEMP_SUFFIX = /\.[0-9a-f]{12}\.tmp$/;

/**
 * `<kiln>/.hearth/changes` opened for one operation of the journal, every step checked on its
 * descriptor (DESIGN.md decision 16): `changes` must be a real folder inside the kiln, and
 * `entries/` and `blobs/` real folders in it — a link there (a repository can commit
 * `blobs -> ../../../somewhere`) is removed and replaced by a folder, never followed, so nothing
 * the journal reads, writes or prunes lies outside. Files are opened with O_NOFOLLOW and only
 * regular files are read or removed.
 */
export class JournalFiles {
  private constructor(
    /** The real path of `.hearth/changes`. */
    readonly real: string,
    private readonly changes: OpenDir,
    private readonly folders: Record<JournalFolder, OpenDir>,
  ) {}

  static async open(kilnRoot: string, log: Logger): Promise<JournalFiles> {
    const shown = join(kilnRoot, '.hearth', 'changes');
    const anchor = new RootAnchor(kilnRoot);
    let changes: OpenDir | undefined;
    try {
      const hearth = await anchor.openDirAt(['.hearth'], true);
      try {
        changes = await anchor.openChild(hearth, 'changes', '.hearth/changes', { create: true, follow: false });
      } finally {
        await hearth.close();
      }
      const entries = await realFolder(anchor, changes, 'entries', log);
      const blobs = await realFolder(anchor, changes, 'blobs', log).catch(async (error: unknown) => {
        await entries.close();
        throw error;
      });
      return new JournalFiles(changes.real, changes, { entries, blobs });
    } catch (error) {
      await changes?.close();
      const why = error instanceof ConfinedFileError && (error.code === 'fs.symlink_refused' || error.code === 'fs.link_escape') ? 'it is a symbolic link (the journal never follows one)' : (error as Error).message;
      throw new ChangeError('changes.journal_unwritable', `Cannot use the change journal at ${shown}: ${why}. Agent edits are refused until it can be written.`, { cause: error });
    }
  }

  get lockPath(): string {
    return join(this.real, 'lock');
  }

  async close(): Promise<void> {
    await Promise.all([this.changes.close(), this.folders.entries.close(), this.folders.blobs.close()]);
  }

  async names(folder: JournalFolder): Promise<string[]> {
    return readdir(this.folders[folder].pathOf(''));
  }

  /** Facts about a name without following it; undefined when it is gone. */
  async lstat(folder: JournalFolder, name: string): Promise<Stats | undefined> {
    return lstat(this.folders[folder].pathOf(name)).catch(() => undefined);
  }

  /** A regular file's bytes; undefined when it is missing, a link or anything else, or over `maxBytes`. */
  async read(folder: JournalFolder, name: string, maxBytes = Infinity): Promise<Buffer | undefined> {
    let handle;
    try {
      handle = await open(this.folders[folder].pathOf(name), constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    } catch {
      return undefined;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.size > maxBytes) return undefined;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /** Temp file (O_EXCL|O_NOFOLLOW) + fsync + rename: a crash leaves the old file or the new one, and a link at the name is replaced, not written through. */
  async writeAtomic(folder: JournalFolder, name: string, bytes: Uint8Array | string): Promise<void> {
    const dir = this.folders[folder];
    const temp = dir.pathOf(`${name}.${lazyCrypto().randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, dir.pathOf(name));
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
  }

  /** Removes `name` only when it is a regular file (never a link's target, never a folder); whether it did. */
  async removeFile(folder: JournalFolder, name: string, olderThan?: number): Promise<boolean> {
    const info = await this.lstat(folder, name);
    if (!info?.isFile() || (olderThan !== undefined && info.mtimeMs >= olderThan)) return false;
    return unlink(this.folders[folder].pathOf(name)).then(
      () => true,
      () => false,
    );
  }

  /** Content-addressed: a blob already there with the right bytes is never rewritten. */
  async putBlob(bytes: Uint8Array): Promise<string> {
    const hash = sha256(bytes);
    const existing = await this.read('blobs', hash, bytes.byteLength);
    if (!existing || sha256(existing) !== hash) await this.writeAtomic('blobs', hash, bytes);
    return hash;
  }

  async readBlob(hash: string): Promise<Buffer | undefined> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const bytes = await this.read('blobs', hash);
    // A damaged blob is as good as a missing one: never restore bytes that are not what was saved.
    return bytes && sha256(bytes) === hash ? bytes : undefined;
  }
}

/** `entries/` or `blobs/` as a real folder: created when missing, a link in its place replaced (with a notice). */
async function realFolder(anchor: RootAnchor, changes: OpenDir, name: JournalFolder, log: Logger): Promise<OpenDir> {
  const rel = `.hearth/changes/${name}`;
  try {
    return await anchor.openChild(changes, name, rel, { create: true, follow: false });
  } catch (error) {
    if (!(error instanceof ConfinedFileError && error.code === 'fs.symlink_refused')) throw error;
    // Removing a link never touches what it points to. Another process may have replaced it first:
    // the open below checks whatever is there now.
    await unlink(changes.pathOf(name)).catch(() => {});
    await mkdir(changes.pathOf(name)).catch((inner: unknown) => (isMissing(inner) ? Promise.reject(inner) : undefined));
    log.warn(`${rel} was a symbolic link (a cloned repository may ship one to aim the journal elsewhere); it was replaced by an empty folder, and nothing it pointed to was read or changed.`);
    return anchor.openChild(changes, name, rel, { create: false, follow: false });
  }
}
