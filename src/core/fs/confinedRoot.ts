import { lazyCrypto } from '../lazyCrypto';
import { close as closeFd, closeSync, constants, fstatSync, open as openCallback, read as readCallback, type Dirent, type Stats } from 'node:fs';
import { link, lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { ConfinedFileError } from './confinedFileError';
import { LeftoverSweeper } from './leftoverTemps';
import { confinePath, type ConfinedPath } from './confinedPath';
import { isAbsent, isLink, isMissing, NOFOLLOW, NONBLOCK, notFound, RootAnchor, type OpenDir } from './rootAnchor';

const openFd = promisify(openCallback);
const readFd = promisify(readCallback);

export interface ConfinedRootOptions {
  /**
   * Follow a symbolic link that is the file itself when its target (checked on the opened
   * descriptor) stays inside the root. The kiln says no (notes are never links; DESIGN.md 16); the
   * ACP workspace says yes (code trees hold links, and agents read through them). Links in parent
   * folders are always allowed when they stay inside: the descriptor check covers them.
   */
  followInnerFileLinks?: boolean;
  /**
   * Check descriptors through `/proc/self/fd` where it exists (default). False takes the portable
   * check (device + inode against the real path) everywhere, so tests on Linux cover it too.
   */
  useProcFd?: boolean;
}

export interface ConfinedRead {
  bytes: Buffer;
  /** Root-relative path as asked for (forward slashes). */
  relative: string;
  size: number;
  modified: Date;
}

/** What a confined write does when the file exists or not. */
export type WriteMode = 'create' | 'replace' | 'upsert';

/**
 * One folder opened inside the root. On Linux its path is `/proc/self/fd/N/`, which resolves to the
 * directory that was opened and checked however its name is swapped afterwards: the portable
 * stand-in for openat(2), which Node lacks. Elsewhere it is the directory's real path, checked
 * when opened (a narrower race, documented in the README's limits).
 */
export interface ConfinedDir {
  /** Root-relative path of the folder ('' for the root). */
  readonly relative: string;
  entries(): Promise<Dirent[]>;
  /** A sub-folder, never through a symbolic link (walks do not follow links); undefined when it is gone or not a folder. */
  child(name: string): Promise<ConfinedDir | undefined>;
  close(): Promise<void>;
}

/**
 * Files of one root (the kiln, or an ACP agent's workspace) read and written so that nothing
 * outside it is ever read, created or overwritten — not even while someone swaps entries for
 * symlinks underneath (DESIGN.md decision 16):
 * - reads open with O_NOFOLLOW and check where the *opened* descriptor lives (on Linux
 *   `/proc/self/fd/N`, which also sees through symlinked parent folders);
 * - writes go to a temp file created with O_EXCL|O_NOFOLLOW in a directory opened and checked the
 *   same way, then renamed (or, for a new file, hard-linked, which never replaces) over the name:
 *   a symlink or hard link at the name is replaced, never written through; the file's mode is kept;
 * - missing folders are created one at a time inside the checked parent, never through a link.
 * Temp files are removed on every path out.
 */
export class ConfinedRoot {
  private readonly anchor: RootAnchor;
  private readonly leftovers = new LeftoverSweeper();

  constructor(
    readonly root: string,
    private readonly options: ConfinedRootOptions = {},
  ) {
    this.anchor = new RootAnchor(root, options.useProcFd ?? true);
  }

  /** The root's real path (the root itself may be reached through a link the user made). */
  async realRoot(): Promise<string> {
    return (await this.anchor.probe()).root;
  }

  async read(input: string | ConfinedPath, options: { maxBytes?: number } = {}): Promise<ConfinedRead> {
    const path = typeof input === 'string' ? confinePath(input) : input;
    const { fd, info } = await this.openFile(path);
    try {
      if (options.maxBytes !== undefined && info.size > options.maxBytes) throw tooLarge(path.relative, info.size, options.maxBytes);
      // The size the descriptor had when checked: a file growing meanwhile is read as it was.
      const bytes = Buffer.allocUnsafe(info.size);
      let filled = 0;
      while (filled < info.size) {
        const { bytesRead } = await readFd(fd, bytes, filled, info.size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { bytes: bytes.subarray(0, filled), relative: path.relative, size: filled, modified: info.mtime };
    } finally {
      closeFd(fd, () => {});
    }
  }

  async readText(input: string | ConfinedPath, options: { maxBytes?: number } = {}): Promise<ConfinedRead & { text: string }> {
    const read = await this.read(input, options);
    return { ...read, text: read.bytes.toString('utf8') };
  }

  /** File or folder facts, confined like a read; undefined when nothing is there. */
  async stat(input: string | ConfinedPath): Promise<Stats | undefined> {
    const path = typeof input === 'string' ? confinePath(input, { allowRoot: true }) : input;
    const opened = await this.openInside(path, false, 'here');
    if ('absent' in opened) return undefined;
    try {
      return fstatSync(opened.fd);
    } finally {
      closeFd(opened.fd, () => {});
    }
  }

  /**
   * `inspect` sees the real root-relative path (after links in parent folders, which may lead
   * elsewhere inside the root) before anything is written, and may throw to stop the write.
   */
  async write(input: string | ConfinedPath, data: Uint8Array | string, mode: WriteMode = 'upsert', inspect?: (realRelative: string) => void): Promise<{ relative: string; created: boolean }> {
    const path = typeof input === 'string' ? confinePath(input) : input;
    const name = path.segments[path.segments.length - 1];
    const dir = await this.anchor.openDirAt(path.segments.slice(0, -1), true);
    try {
      if (inspect) {
        const realDir = relative(await this.realRoot(), dir.real).split(sep).join('/');
        inspect(realDir ? `${realDir}/${name}` : name);
      }
      const target = dir.pathOf(name);
      const existing = await lstat(target).catch((error) => (isMissing(error) ? undefined : Promise.reject(error)));
      if (existing?.isDirectory()) throw new ConfinedFileError('fs.not_a_file', `"${path.relative}" is a folder`, path.relative);
      // Never through a link, even one that stays inside (if one is swapped in after this check, the
      // rename below replaces the link itself, so nothing it points to is written either).
      if (existing?.isSymbolicLink()) throw new ConfinedFileError('fs.symlink_refused', `"${path.relative}" is a symbolic link; Hearth does not write through links`, path.relative);
      if (existing && mode === 'create') throw exists(path.relative);
      if (!existing && mode === 'replace') throw notFound(path.relative);
      const temp = dir.pathOf(`.${name.slice(0, 100)}.${lazyCrypto().randomBytes(6).toString('hex')}.hearth-tmp`);
      try {
        const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o666);
        try {
          await handle.writeFile(data);
          // A replaced file keeps its permissions (an executable script stays executable).
          if (existing?.isFile()) await handle.chmod(existing.mode & 0o7777);
          await handle.sync();
        } finally {
          await handle.close();
        }
        // The folder was checked when opened; a move of the folder itself out of the root since
        // then is caught here, just before the file appears under its name.
        await dir.recheck();
        if (existing) {
          await rename(temp, target);
        } else {
          // link(2) never replaces: a file (or link) that appeared meanwhile makes it fail instead.
          try {
            await link(temp, target);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists(path.relative);
            throw error;
          }
        }
      } finally {
        await unlink(temp).catch(() => {});
      }
      // The next writer clears what a killed one left beside its notes (`.name.md.*.hearth-tmp`).
      await this.leftovers.sweep(dir);
      return { relative: path.relative, created: !existing };
    } finally {
      await dir.close();
    }
  }

  /** Removes a file (a link is removed itself, its target untouched); false when there was none. */
  async remove(input: string | ConfinedPath): Promise<boolean> {
    const path = typeof input === 'string' ? confinePath(input) : input;
    let dir: OpenDir;
    try {
      dir = await this.anchor.openDirAt(path.segments.slice(0, -1), false);
    } catch (error) {
      if (error instanceof ConfinedFileError && error.code === 'fs.not_found') return false;
      throw error;
    }
    try {
      const target = dir.pathOf(path.segments[path.segments.length - 1]);
      const existing = await lstat(target).catch(() => undefined);
      if (!existing) return false;
      if (existing.isDirectory()) throw new ConfinedFileError('fs.not_a_file', `"${path.relative}" is a folder`, path.relative);
      await unlink(target);
      return true;
    } finally {
      await dir.close();
    }
  }

  /** Opens a folder for listing; undefined when it does not exist. */
  async directory(input: string | ConfinedPath): Promise<ConfinedDir | undefined> {
    const path = typeof input === 'string' ? confinePath(input, { allowRoot: true }) : input;
    try {
      return this.asConfinedDir(await this.anchor.openDirAt(path.segments, false), path.relative);
    } catch (error) {
      if (error instanceof ConfinedFileError && (error.code === 'fs.not_found' || error.code === 'fs.not_a_file')) return undefined;
      throw error;
    }
  }

  private asConfinedDir(dir: OpenDir, rel: string): ConfinedDir {
    return {
      relative: rel,
      entries: () => readdir(dir.pathOf(''), { withFileTypes: true }),
      child: async (name) => {
        const childRel = rel ? `${rel}/${name}` : name;
        try {
          return this.asConfinedDir(await this.anchor.openChild(dir, name, childRel, { create: false, follow: false }), childRel);
        } catch (error) {
          if (error instanceof ConfinedFileError) return undefined;
          throw error;
        }
      },
      close: () => dir.close(),
    };
  }

  /**
   * Opens a file for reading and checks it: regular file, inside the root. Plain descriptors and
   * the synchronous readlink/fstat of an open descriptor (kernel-only work, no disk) keep this as
   * cheap as the unconfined readFile it replaced on the hot paths (read_note, indexing).
   */
  private async openFile(path: ConfinedPath): Promise<{ fd: number; info: Stats }> {
    const opened = await this.openInside(path, this.options.followInnerFileLinks === true, 'to notes');
    if ('absent' in opened) throw notFound(path.relative, opened.absent);
    const { fd } = opened;
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) throw new ConfinedFileError('fs.not_a_file', `"${path.relative}" is not a regular file`, path.relative);
      return { fd, info };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * Opens an entry of the root and checks that the opened descriptor lies inside it. A link that is
   * the entry itself is refused ("does not follow links `refusal`"), or with `followLink` opened and
   * checked the same way. `absent`: nothing is there (the open's error).
   */
  private async openInside(path: ConfinedPath, followLink: boolean, refusal: string): Promise<{ fd: number } | { absent: unknown }> {
    const { root } = await this.anchor.probe();
    const absolute = join(root, ...path.segments);
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO planted as a note must not hang the open; a read refuses it after.
      fd = await openFd(absolute, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    } catch (error) {
      if (isAbsent(error)) return { absent: error };
      if (!isLink(error)) throw error;
      if (!followLink) throw new ConfinedFileError('fs.symlink_refused', `"${path.relative}" is a symbolic link; Hearth does not follow links ${refusal}`, path.relative, { cause: error });
      try {
        fd = await openFd(absolute, constants.O_RDONLY | NONBLOCK);
      } catch (inner) {
        if (isAbsent(inner)) return { absent: inner };
        throw inner;
      }
    }
    try {
      await this.anchor.checkInside(fd, absolute, path.relative);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return { fd };
  }

}

function exists(rel: string): ConfinedFileError {
  return new ConfinedFileError('fs.exists', `"${rel}" already exists`, rel);
}

function tooLarge(rel: string, size: number, max: number): ConfinedFileError {
  return new ConfinedFileError('fs.too_large', `"${rel}" is ${Math.ceil(size / 1024)} KB, over the ${Math.ceil(max / 1024)} KB limit`, rel);
}
