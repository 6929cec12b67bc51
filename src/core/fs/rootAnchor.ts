import { constants, fstatSync, readlinkSync } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ConfinedFileError } from './confinedFileError';

export const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
export const DIRECTORY = constants.O_DIRECTORY ?? 0;
export const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * A root folder and the means to prove a descriptor lies inside it (DESIGN.md decision 16):
 * its real path, whether `/proc/self/fd` answers here, and folders opened step by step, each
 * checked on its descriptor. ConfinedRoot builds its reads and writes on it.
 */
export class RootAnchor {
  private real: Promise<{ root: string; proc: boolean }> | undefined;

  /** `useProcFd: false` takes the portable path even on Linux (tests of the macOS / Windows check). */
  constructor(
    readonly root: string,
    private readonly useProcFd = true,
  ) {}

  /** Opens the folder `segments` (creating missing ones when asked), each step checked inside. */
  async openDirAt(segments: readonly string[], create: boolean): Promise<OpenDir> {
    const { root } = await this.probe();
    let dir = await this.wrapDir(await open(root, constants.O_RDONLY | DIRECTORY), root, '');
    let rel = '';
    try {
      for (const segment of segments) {
        rel = rel ? `${rel}/${segment}` : segment;
        const next = await this.openChild(dir, segment, rel, { create, follow: true });
        await dir.close();
        dir = next;
      }
      return dir;
    } catch (error) {
      await dir.close();
      throw error;
    }
  }

  async openChild(parent: OpenDir, name: string, rel: string, options: { create: boolean; follow: boolean }): Promise<OpenDir> {
    const at = parent.pathOf(name);
    const flags = constants.O_RDONLY | DIRECTORY | (options.follow ? 0 : NOFOLLOW);
    let handle: FileHandle;
    try {
      handle = await open(at, flags);
    } catch (error) {
      if (!isMissing(error) || !options.create) {
        if (isMissing(error)) throw notFound(rel, error);
        if (isLink(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
          const info = await lstat(at).catch(() => undefined);
          if (info?.isSymbolicLink()) throw new ConfinedFileError('fs.symlink_refused', `"${rel}" is a symbolic link`, rel, { cause: error });
          throw new ConfinedFileError('fs.not_a_file', `"${rel}" is not a folder`, rel, { cause: error });
        }
        throw error;
      }
      await mkdir(at).catch((inner: NodeJS.ErrnoException) => (inner.code === 'EEXIST' ? undefined : Promise.reject(inner)));
      // Just created (or raced into existence): never follow a link someone swapped in meanwhile.
      try {
        handle = await open(at, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
      } catch (inner) {
        throw new ConfinedFileError('fs.symlink_refused', `"${rel}" changed into a link or file while it was created`, rel, { cause: inner });
      }
    }
    try {
      return await this.wrapDir(handle, at, rel);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  private async wrapDir(handle: FileHandle, openedAs: string, rel: string): Promise<OpenDir> {
    const { proc } = await this.probe();
    const real = await this.checkInside(handle.fd, openedAs, rel);
    const base = proc ? `/proc/self/fd/${handle.fd}` : real;
    return {
      real,
      pathOf: (name) => (name ? join(base, name) : base),
      recheck: async () => void (await this.checkInside(handle.fd, real, rel)),
      close: () => handle.close(),
    };
  }

  /**
   * Where the opened descriptor really is, refused unless inside the root. Linux: the kernel's own
   * answer (`/proc/self/fd/N`). Elsewhere: the real path of the name it was opened by, accepted only
   * when it is the same file (device and inode) as the descriptor.
   */
  async checkInside(fd: number, openedAs: string, rel: string): Promise<string> {
    const { root, proc } = await this.probe();
    let real: string;
    if (proc) {
      real = readlinkSync(`/proc/self/fd/${fd}`).replace(/ \(deleted\)$/, '');
    } else {
      real = await realpath(openedAs);
      const [byFd, byName] = [fstatSync(fd), await lstat(real)];
      if (byFd.ino !== byName.ino || byFd.dev !== byName.dev) throw new ConfinedFileError('fs.link_escape', `"${rel}" changed while it was opened`, rel);
    }
    if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
      throw new ConfinedFileError('fs.link_escape', `"${rel}" leads outside ${relative(root, real).startsWith('..') ? 'the folder' : 'it'} through a symbolic link`, rel);
    }
    return real;
  }

  probe(): Promise<{ root: string; proc: boolean }> {
    // Cached only once it worked: a kiln created later is found then.
    const attempt = (this.real ??= (async () => {
      const root = await realpath(this.root).catch((error) => Promise.reject(notFound(this.root, error)));
      let proc = false;
      if (process.platform === 'linux' && this.useProcFd) {
        const handle = await open(root, constants.O_RDONLY | DIRECTORY);
        try {
          proc = (await readlink(`/proc/self/fd/${handle.fd}`).catch(() => '')) === root;
        } finally {
          await handle.close();
        }
      }
      return { root, proc };
    })());
    attempt.catch(() => (this.real = undefined));
    return attempt;
  }
}

export interface OpenDir {
  /** The folder's real path, as checked when it was opened. */
  readonly real: string;
  /** A name inside the opened folder, as a path the kernel resolves through the checked descriptor. */
  pathOf(name: string): string;
  /** Checks again that the folder is still inside the root (it may have been moved since it was opened). */
  recheck(): Promise<void>;
  close(): Promise<void>;
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/** Missing, or a parent on the way is a file: nothing can be at that path. */
export function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function isLink(error: unknown): boolean {
  // Linux says ELOOP for O_NOFOLLOW on a link; the BSDs say EMLINK or EFTYPE.
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE';
}

export function notFound(rel: string, cause?: unknown): ConfinedFileError {
  return new ConfinedFileError('fs.not_found', `Nothing at "${rel}"`, rel, { cause });
}
