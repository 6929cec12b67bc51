import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { ALWAYS_EXCLUDED } from './kilnPath';

export const NOTE_EXTENSIONS = ['.md', '.markdown'];

export function isNotePath(path: string): boolean {
  const lower = path.toLowerCase();
  return NOTE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

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
 * not followed, so a link pointing out of the kiln cannot widen what the tools see.
 */
export async function listNotePaths(kilnRoot: string, folder: string, options: { recursive: boolean; exclude?: readonly string[] }): Promise<string[]> {
  const excluded = excludeMatcher(options.exclude);
  const found: string[] = [];
  async function visit(relDir: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(join(kilnRoot, relDir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (ALWAYS_EXCLUDED.includes(entry.name) || excluded(rel)) continue;
      if (entry.isDirectory()) {
        if (options.recursive) await visit(rel);
      } else if (entry.isFile() && isNotePath(entry.name)) {
        found.push(rel);
      }
    }
  }
  await visit(folder);
  return found.sort();
}
