import picomatch from 'picomatch';
import { ConfinedRoot, type ConfinedDir } from '../fs/confinedRoot';
import { ALWAYS_EXCLUDED, isNotePath } from './notePaths';

/**
 * `[processing].exclude` as a matcher of kiln-relative paths. As in .gitignore, a glob without a
 * slash (`*.draft.md`, `archive`) matches a file or folder name at any depth, and one with a slash
 * (`journal/drafts/**`) matches from the kiln root. picomatch's own `basename` option cannot do
 * this: it also stops the globs with a slash from matching.
 */
export function excludeMatcher(exclude: readonly string[] = []): (path: string) => boolean {
  const globs = exclude.map((glob) => glob.replace(/\/+$/, '')).filter((glob) => glob !== '');
  const anywhere = globs.filter((glob) => !glob.includes('/'));
  const rooted = globs.filter((glob) => glob.includes('/'));
  const byName = anywhere.length > 0 ? picomatch(anywhere, { dot: true }) : undefined;
  const byPath = rooted.length > 0 ? picomatch(rooted.map((glob) => glob.replace(/^\//, '')), { dot: true }) : undefined;
  return (path) => (byPath?.(path) ?? false) || (byName?.(path.slice(path.lastIndexOf('/') + 1)) ?? false);
}

/**
 * Kiln-relative paths (forward slashes, sorted) of the notes under `folder`. Symlinked folders are
 * not followed, and each folder is opened through its checked parent (ConfinedRoot), so a folder
 * swapped for a link out of the kiln mid-walk cannot widen what the tools or the index see.
 */
export async function listNotePaths(kiln: ConfinedRoot | string, folder: string, options: { recursive: boolean; exclude?: readonly string[] }): Promise<string[]> {
  const files = typeof kiln === 'string' ? new ConfinedRoot(kiln) : kiln;
  const excluded = excludeMatcher(options.exclude);
  const found: string[] = [];
  async function visit(dir: ConfinedDir): Promise<void> {
    try {
      let entries;
      try {
        entries = await dir.entries();
      } catch {
        return;
      }
      for (const entry of entries) {
        const rel = dir.relative ? `${dir.relative}/${entry.name}` : entry.name;
        if (ALWAYS_EXCLUDED.includes(entry.name) || excluded(rel)) continue;
        if (entry.isDirectory()) {
          if (!options.recursive) continue;
          const child = await dir.child(entry.name);
          if (child) await visit(child);
        } else if (entry.isFile() && isNotePath(entry.name)) {
          found.push(rel);
        }
      }
    } finally {
      await dir.close();
    }
  }
  const top = await files.directory(folder).catch(() => undefined);
  if (top) await visit(top);
  return found.sort();
}
