import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, realpath, rename, unlink } from 'node:fs/promises';
import { join, relative, sep, isAbsolute } from 'node:path';
import { ChangeError } from './changeErrors';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The journal's own folder (`<kiln>/.hearth/changes`), created on first use. A committed
 * `.hearth -> /elsewhere` symlink must not make Hearth write its journal outside the kiln, so the
 * real location is checked against the kiln's.
 */
export async function ensureJournalDir(kilnRoot: string): Promise<string> {
  const dir = join(kilnRoot, '.hearth', 'changes');
  try {
    await mkdir(join(dir, 'entries'), { recursive: true });
    await mkdir(join(dir, 'blobs'), { recursive: true });
  } catch (error) {
    throw new ChangeError('changes.journal_unwritable', `Cannot create the change journal at ${dir}: ${(error as Error).message}. Agent edits are refused until it can be written.`, { cause: error });
  }
  const [realKiln, realDir] = await Promise.all([realpath(kilnRoot), realpath(dir)]);
  const rel = relative(realKiln, realDir);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep)[0] !== '.hearth') {
    throw new ChangeError('changes.journal_unwritable', `The change journal ${dir} leads outside the kiln (a symbolic link); agent edits are refused.`);
  }
  return realDir;
}

/** Temp file + fsync + rename: a crash leaves the old file or the new one. */
export async function writeAtomic(target: string, bytes: Uint8Array | string): Promise<void> {
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}

/** Content-addressed: a blob already there is the same bytes, so it is never rewritten. */
export async function putBlob(dir: string, bytes: Uint8Array): Promise<string> {
  const hash = sha256(bytes);
  const path = join(dir, 'blobs', hash);
  const existing = await readFile(path).catch(() => undefined);
  if (existing && sha256(existing) === hash) return hash;
  await writeAtomic(path, bytes);
  return hash;
}

export async function readBlob(dir: string, hash: string): Promise<Buffer | undefined> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
  const bytes = await readFile(join(dir, 'blobs', hash)).catch(() => undefined);
  // A damaged blob is as good as a missing one: never restore bytes that are not what was saved.
  return bytes && sha256(bytes) === hash ? bytes : undefined;
}
