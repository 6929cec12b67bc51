import { constants } from 'node:fs';
import { chmod, mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../host';
import { lazyCrypto } from '../lazyCrypto';
import { userDataDir } from '../config/locations';

const KEY_BYTES = 32;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** `<user data dir>/hearth/journal.key`: outside every kiln, so no repository can ship or read it. */
export function defaultJournalKeyFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(userDataDir(env), 'journal.key');
}

/**
 * The per-user secret the change journal signs its entries with (HMAC-SHA256). An entry file a
 * repository ships, or one edited after it was written, does not carry a valid signature, so it is
 * never offered for undo and its id, time and size are never believed (issue 30, findings 2 and 12).
 * The file is created on first use, 0600, with O_EXCL (two processes racing both end up with the
 * winner's key) and read with O_NOFOLLOW.
 */
export class JournalKey {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly file: string,
    private readonly log: Logger,
  ) {}

  /** The key's bytes; when the file cannot be kept, a key for this process only (said once in the log). */
  bytes(): Promise<Buffer> {
    return (this.key ??= this.load().catch((error: unknown) => {
      this.log.warn(
        `cannot keep the change journal's key at ${this.file} (${(error as Error).message}); agent changes made by this process can be undone only while it runs.`,
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
    const existing = await readKey(this.file);
    if (existing) return existing;
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    const fresh = lazyCrypto().randomBytes(KEY_BYTES);
    try {
      const handle = await open(this.file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
      try {
        await handle.writeFile(fresh.toString('hex'));
        await handle.sync();
      } finally {
        await handle.close();
      }
      // The umask may have narrowed the mode further, never widened it; chmod states it anyway.
      await chmod(this.file, 0o600).catch(() => {});
      return fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another process created it first: use its key (once it has written it), or entries would
      // not verify across processes.
      for (let attempt = 0; ; attempt++) {
        const theirs = await readKey(this.file).catch((inner: unknown) => (attempt < 10 ? undefined : Promise.reject(inner)));
        if (theirs) return theirs;
        if (attempt >= 10) throw new Error('the key file is empty', { cause: error });
        await sleep(20);
      }
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
    // A half-written key (a crash while creating it) is not a key: the caller reports it.
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error('the key file is damaged; delete it to start a new journal history');
    return Buffer.from(text, 'hex');
  } finally {
    await handle.close();
  }
}
