import { isAbsolute } from 'node:path';
import { ConfinedFileError } from './confinedFileError';

/** Linux's PATH_MAX and NAME_MAX: what the old single-call path APIs enforced, kept now that folders open one by one. */
const MAX_PATH_CHARS = 4096;
const MAX_SEGMENT_BYTES = 255;

/** A path checked lexically against its root: no absolute part, no `..`, no NUL. */
export interface ConfinedPath {
  /** Root-relative segments, never empty strings, `.` or `..`. */
  segments: string[];
  /** Root-relative with forward slashes ('' for the root itself). */
  relative: string;
}

/**
 * The lexical half of confinement: refuses anything that names a place outside the root before the
 * disk is touched. Symlinks are the other half, checked on opened descriptors by ConfinedRoot,
 * since checking a path and then using it races with whoever swaps the entry in between.
 */
export function confinePath(input: string, options: { allowRoot?: boolean } = {}): ConfinedPath {
  const refuse = (why: string) => new ConfinedFileError('fs.outside_root', `Path "${input}" is not allowed: ${why}`, input);
  if (input.includes('\0')) throw refuse('it contains a NUL character');
  const trimmed = input.trim();
  if (isAbsolute(trimmed) || /^[A-Za-z]:/.test(trimmed) || trimmed.startsWith('\\\\') || trimmed.startsWith('~')) throw refuse('it is absolute');
  const segments = trimmed.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (segments.includes('..')) throw refuse('".." leaves the root');
  if (segments.length === 0 && !options.allowRoot) throw refuse('it names the root folder itself');
  if (trimmed.length > MAX_PATH_CHARS || segments.some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) {
    throw new ConfinedFileError('fs.path_too_long', `Path "${input.slice(0, 80)}…" is too long (at most ${MAX_PATH_CHARS} characters, ${MAX_SEGMENT_BYTES} bytes per name)`, input.slice(0, 200));
  }
  return { segments, relative: segments.join('/') };
}
