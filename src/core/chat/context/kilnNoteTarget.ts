/**
 * What a clicked note link in the chat opens: a kiln-relative `.md` path, or a wiki-link name looked
 * up by file name (`[[Composting]]` → `techniques/Composting.md`). The webview's message is
 * untrusted, so the result is confined to the kiln alone (not the workspace, not open editors):
 * `..`, absolute paths, URLs and symlinks out are refused with a ChatPathError.
 */
import { readdir } from 'node:fs/promises';
import { AttachmentScope, ChatPathError, type ScopedPath } from './attachmentScope';
import { isKilnRelativeNotePath } from './noteReferences';

/** A wiki-link lookup stops after this many directory entries (a huge kiln must not stall a click). */
const MAX_WALK_ENTRIES = 100_000;

export async function resolveKilnNote(kiln: string, target: string): Promise<ScopedPath> {
  const { scope, path } = await locate(kiln, target);
  return refusedAsNotANote(target, () => scope.check(path));
}

/**
 * The note's text for a model's context (auto context, `[[` heading completion), confined to the kiln:
 * a note that is, or is swapped for, a link leading out of it is refused, never read.
 */
export async function readKilnNote(kiln: string, target: string): Promise<ScopedPath & { text: string }> {
  const { scope, path } = await locate(kiln, target);
  return refusedAsNotANote(target, () => scope.read(path));
}

async function locate(kiln: string, target: string): Promise<{ scope: AttachmentScope; path: string }> {
  const scope = new AttachmentScope({ kiln: () => kiln, workspaceFolders: () => [], openFiles: () => [] });
  if (!isKilnRelativeNotePath(target)) throw notANote(target);
  if (/\.md$/i.test(target)) return { scope, path: target };
  const match = await findByName(kiln, target);
  if (!match) throw new ChatPathError('chat.path_not_found', `No note named "${target}" in the kiln.`, target);
  return { scope, path: match };
}

async function refusedAsNotANote<T>(target: string, confined: () => Promise<T>): Promise<T> {
  try {
    return await confined();
  } catch (error) {
    if (error instanceof ChatPathError && error.code === 'chat.path_outside_scope') throw notANote(target, error);
    throw error;
  }
}

function notANote(target: string, cause?: unknown): ChatPathError {
  return new ChatPathError('chat.path_outside_scope', `Refused: ${target} is not a note in the kiln.`, target, { cause });
}

/** The kiln-relative path of the note named `name` (file name, or path without `.md`); the shortest wins. */
async function findByName(kiln: string, name: string): Promise<string | undefined> {
  const wanted = name.trim().toLowerCase().replace(/\\/g, '/');
  let entries: string[];
  try {
    entries = (await readdir(kiln, { recursive: true })).slice(0, MAX_WALK_ENTRIES).map((e) => e.replace(/\\/g, '/'));
  } catch {
    return undefined;
  }
  const candidates = entries.filter((entry) => {
    if (!/\.md$/i.test(entry) || entry.split('/').some((segment) => segment.startsWith('.'))) return false;
    const stem = entry.slice(0, -3).toLowerCase();
    return stem === wanted || stem.endsWith(`/${wanted}`);
  });
  return candidates.sort((a, b) => a.length - b.length || a.localeCompare(b))[0];
}
