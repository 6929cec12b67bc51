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
 * Kiln-relative paths (forward slashes, sorted) of the notes under `folder`. Symlinked folders are
 * not followed, so a link pointing out of the kiln cannot widen what the tools see.
 */
export async function listNotePaths(kilnRoot: string, folder: string, options: { recursive: boolean; exclude?: readonly string[] }): Promise<string[]> {
  const excluded = options.exclude && options.exclude.length > 0 ? picomatch([...options.exclude], { dot: true }) : () => false;
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
