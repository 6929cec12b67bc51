import { constants } from 'node:fs';
import { chmod, link, mkdir, open, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '../host';
import { lazyCrypto } from '../lazyCrypto';
import { userDataDir } from '../config/locations';

const KEY_BYTES = 32;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * `<user data dir>/hearth/journal.key`: outside every kiln, so no repository can ship or read it.
 * Undefined for a user without a home folder and without XDG_DATA_HOME (a container's arbitrary uid).
 */
export function defaultJournalKeyFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  try {
    return join(userDataDir(env), 'journal.key');
  } catch {
    return undefined;
  }
}

/**
 * The per-user secret the change journal signs its entries with (HMAC-SHA256). An entry file a
 * repository ships, or one edited after it was written, does not carry a valid signature, so it is
 * never offered for undo and its id, time and size are never believed (issue 30, findings 2 and 12).
 * The file is created on first use, 0600, whole (two processes racing both end up with the
 * winner's key), and read with O_NOFOLLOW.
 */
export class JournalKey {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly file: string | undefined,
    private readonly log: Logger,
  ) {}

  /** The key's bytes; when the file cannot be kept, a key for this process only (said once in the log). */
  bytes(): Promise<Buffer> {
    return (this.key ??= this.load().catch((error: unknown) => {
      this.log.warn(
        `cannot keep the change journal's key at ${this.file ?? 'the user data folder'} (${(error as Error).message}); agent changes made by this process can be undone only while it runs.`,
      );
      return lazyCrypto().randomBytes(KEY_BYTES);
    }));
  }

  async mac(text: string): Promise<string> {
    return lazyCrypto().createHmac('sha256', await this.bytes()).update(text).digest('hex');
  }

  /** Whether `mac` is the signature of `text` (compared in constant time). */
  async verify(text: string, mac: unknown): Promise<boolean> {
    if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return lazyCrypto().timingSafeEqual(Buffer.from(await this.mac(text), 'hex'), Buffer.from(mac, 'hex'));
  }

  private async load(): Promise<Buffer> {
    const file = this.file;
    if (file === undefined) throw new Error('there is no user data folder (no home folder, no XDG_DATA_HOME)');
    const existing = await readKey(file);
    if (existing) return existing;
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const fresh = lazyCrypto().randomBytes(KEY_BYTES);
    // Written whole under a temp name, then hard-linked into place: link(2) never replaces, so of
    // processes racing (the gateway and the editor's first edits) one key wins, and nobody ever
    // reads a half-written one (a reader that did would sign with a key of its own).
    const temp = `${file}.${lazyCrypto().randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
      try {
        await handle.writeFile(fresh.toString('hex'));
        await handle.sync();
      } finally {
        await handle.close();
      }
      // The umask may have narrowed the mode further, never widened it; chmod states it anyway.
      await chmod(temp, 0o600).catch(() => {});
      await link(temp, file);
      return fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const theirs = await readKey(file);
      if (!theirs) throw new Error('the key file vanished', { cause: error });
      return theirs;
    } finally {
      await unlink(temp).catch(() => {});
    }
  }
}

async function readKey(file: string): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > 1024) throw new Error('it is not a key file');
    const text = (await handle.readFile('utf8')).trim();
    // Keys are linked into place whole, so this is damage (or not Hearth's file): the caller reports it.
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error('the key file is damaged; delete it to start a new journal history');
    return Buffer.from(text, 'hex');
  } finally {
    await handle.close();
  }
}
