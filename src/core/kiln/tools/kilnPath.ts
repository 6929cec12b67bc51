import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { KilnToolError } from './kilnToolErrors';

/** Folders that are never notes: version control, dependencies and Hearth's own index. */
export const ALWAYS_EXCLUDED = ['.git', 'node_modules', '.hearth'];

export interface KilnPath {
  /** Absolute path inside the kiln. */
  absolute: string;
  /** Kiln-relative path with forward slashes (what tools report back). */
  relative: string;
}

/**
 * Resolves a tool's kiln-relative path and refuses anything that could reach outside the kiln:
 * absolute paths, `..` segments, and symlinks (of the target or any parent) that lead out. Tools
 * are called by models, so every path is hostile until checked.
 */
export async function resolveKilnPath(kilnRoot: string, input: string, options: { allowRoot?: boolean } = {}): Promise<KilnPath> {
  const refuse = (why: string) => new KilnToolError('path-outside-kiln', `Path "${input}" is not allowed: ${why}; use a path relative to the kiln`);
  if (input.includes('\0')) throw refuse('it contains a NUL character');
  const trimmed = input.trim();
  if (isAbsolute(trimmed) || /^[A-Za-z]:/.test(trimmed) || trimmed.startsWith('\\\\') || trimmed.startsWith('~')) throw refuse('it is absolute');
  const segments = trimmed.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (segments.includes('..')) throw refuse('".." leaves the kiln');
  if (segments.length === 0 && !options.allowRoot) throw refuse('it names the kiln itself');
  if (segments.length > 0 && ALWAYS_EXCLUDED.includes(segments[0])) throw refuse(`"${segments[0]}" is not part of the notes`);
  const root = resolve(kilnRoot);
  const absolute = resolve(root, ...segments);
  // Symlinks: the real location of the deepest existing ancestor (or the target) must stay inside.
  const realRoot = await realpath(root);
  let probe = absolute;
  for (;;) {
    try {
      const real = await realpath(probe);
      if (real !== realRoot && !real.startsWith(realRoot + sep)) throw refuse('a symbolic link leads outside the kiln');
      break;
    } catch (error) {
      if (error instanceof KilnToolError) throw error;
      const parent = dirname(probe);
      if (parent === probe) break;
      probe = parent;
    }
  }
  return { absolute, relative: relative(root, absolute).split(sep).join('/') };
}
