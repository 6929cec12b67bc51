/**
 * The CLI's list of trusted folders (DESIGN.md decision 14), kept beside the global config as
 * `trusted-folders.json`: a folder is trusted when it or one of its parents is listed, compared
 * after `realpath` (a symlink into a trusted folder is trusted, a symlink out of it is not). The
 * editor's Workspace Trust is separate and not read here. Writes are atomic (temp file + rename),
 * readable by the user only; a damaged list trusts nothing and says so instead of being overwritten.
 */
import { mkdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { HearthError } from '../errors';

export const TRUSTED_FOLDERS_FILE = 'trusted-folders.json';

/** The trust area's codes: the list is damaged, a non-folder was to be trusted, a command needs trust (cli/cliTrust.ts). */
export type TrustErrorCode = 'trust.store_unreadable' | 'trust.not_a_folder' | 'trust.untrusted_folder';

export class TrustStoreError extends HearthError {
  constructor(
    message: string,
    options?: { cause?: unknown },
    override readonly code: Exclude<TrustErrorCode, 'trust.untrusted_folder'> = 'trust.store_unreadable',
  ) {
    super(code, message, options);
  }
}

interface StoredList {
  version: 1;
  folders: string[];
}

export class TrustedFolders {
  /** @param file `<global config dir>/trusted-folders.json` */
  constructor(readonly file: string) {}

  /** The listed folders, as stored (real paths). Throws TrustStoreError when the file is damaged. */
  async list(): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new TrustStoreError(`cannot read the trusted-folder list ${this.file}: ${(error as Error).message}`, { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new TrustStoreError(`the trusted-folder list ${this.file} is not valid JSON; fix it or delete it (every folder is then untrusted)`, { cause: error });
    }
    const folders = (parsed as Partial<StoredList> | null)?.folders;
    if (!Array.isArray(folders) || !folders.every((f) => typeof f === 'string' && path.isAbsolute(f))) {
      throw new TrustStoreError(`the trusted-folder list ${this.file} is damaged (expected {"version": 1, "folders": [absolute paths]}); fix it or delete it`);
    }
    return folders;
  }

  /** The listed folder that covers `folder` (itself or a parent), or undefined; a damaged list covers nothing. */
  async covering(folder: string): Promise<string | undefined> {
    let folders: string[];
    try {
      folders = await this.list();
    } catch {
      return undefined;
    }
    const real = await realFolder(folder);
    return folders.find((listed) => isSameOrInside(listed, real));
  }

  /** Adds the folder's real path; returns it. Already listed: unchanged. Only existing folders. */
  async add(folder: string): Promise<string> {
    const real = await realFolder(folder);
    const isFolder = await stat(real).then((info) => info.isDirectory(), () => false);
    if (!isFolder) throw new TrustStoreError(`${path.resolve(folder)} is not an existing folder; only folders can be trusted`, undefined, 'trust.not_a_folder');
    const folders = await this.list();
    if (!folders.includes(real)) await this.save([...folders, real]);
    return real;
  }

  /** Removes the folder (by real path, or as written when it no longer exists); returns whether it was listed. */
  async remove(folder: string): Promise<boolean> {
    const folders = await this.list();
    const candidates = new Set([path.resolve(folder), await realFolder(folder)]);
    const kept = folders.filter((listed) => !candidates.has(listed));
    if (kept.length === folders.length) return false;
    await this.save(kept);
    return true;
  }

  private async save(folders: string[]): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    const body: StoredList = { version: 1, folders };
    await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, this.file);
  }
}

/** The real path of a folder; one that does not exist resolves as written (it cannot hold a link yet). */
async function realFolder(folder: string): Promise<string> {
  const absolute = path.resolve(folder);
  return realpath(absolute).catch(() => absolute);
}

function isSameOrInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
