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
  const scope = new AttachmentScope({ kiln: () => kiln, workspaceFolders: () => [], openFiles: () => [] });
  const refused = () => new ChatPathError('chat.path_outside_scope', `Refused: ${target} is not a note in the kiln.`, target);
  if (!isKilnRelativeNotePath(target)) throw refused();
  const check = async (path: string) => {
    try {
      return await scope.check(path);
    } catch (error) {
      if (error instanceof ChatPathError && error.code === 'chat.path_outside_scope') throw refused();
      throw error;
    }
  };
  if (/\.md$/i.test(target)) return check(target);
  const match = await findByName(kiln, target);
  if (!match) throw new ChatPathError('chat.path_not_found', `No note named "${target}" in the kiln.`, target);
  return check(match);
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
