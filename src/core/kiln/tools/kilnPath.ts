import { resolve, sep } from 'node:path';
import { ConfinedFileError } from '../../fs/confinedFileError';
import { confinePath } from '../../fs/confinedPath';
import { ALWAYS_EXCLUDED } from '../notePaths';
import { KilnToolError } from './kilnToolErrors';

export interface KilnPath {
  /** Absolute path inside the kiln (lexically; symlinks are checked when the file is opened). */
  absolute: string;
  /** Kiln-relative path with forward slashes (what tools report back). */
  relative: string;
}

/**
 * Checks a tool's kiln-relative path lexically and refuses absolute paths, `..` segments and the
 * internal folders. Tools are called by models, so every path is hostile until checked; symlinks
 * are refused where the file is opened (ConfinedRoot), since a check made here would race with
 * whoever swaps the entry before the open.
 */
export async function confineToolPath(kilnRoot: string, input: string, options: { allowRoot?: boolean } = {}): Promise<KilnPath> {
  let segments: string[];
  try {
    ({ segments } = confinePath(input, options));
  } catch (error) {
    throw asKilnToolError(error, input);
  }
  if (segments.length > 0 && ALWAYS_EXCLUDED.includes(segments[0])) {
    throw new KilnToolError('kiln.path_outside_kiln', `Path "${input}" is not allowed: "${segments[0]}" is not part of the notes; use a path relative to the kiln`);
  }
  const root = resolve(kilnRoot);
  const absolute = resolve(root, ...segments);
  return { absolute, relative: segments.join('/') || absolute.slice(root.length + sep.length) };
}

/**
 * A confined-file refusal in the kiln tools' words (a model reads these and corrects its call);
 * anything else, protected-path refusals included, passes through unchanged.
 */
export function asKilnToolError(error: unknown, input: string): unknown {
  if (!(error instanceof ConfinedFileError)) return error;
  const rel = error.path;
  switch (error.code) {
    case 'fs.outside_root':
      return new KilnToolError('kiln.path_outside_kiln', `${error.message.replace(/the root( folder)?/, 'the kiln')}; use a path relative to the kiln`, { cause: error });
    case 'fs.link_escape':
      return new KilnToolError('kiln.path_outside_kiln', `Path "${input}" is not allowed: a symbolic link leads outside the kiln; use a path relative to the kiln`, { cause: error });
    case 'fs.symlink_refused':
      return new KilnToolError('kiln.path_outside_kiln', `Path "${input}" is not allowed: "${rel}" is a symbolic link, and Hearth does not follow links to notes`, { cause: error });
    case 'fs.not_found':
      return new KilnToolError('kiln.not_found', `No note at "${rel}"; use list_notes to see what exists`, { cause: error });
    case 'fs.not_a_file':
      return new KilnToolError('kiln.not_a_note', `"${rel}" is not a markdown note`, { cause: error });
    case 'fs.too_large':
      return new KilnToolError('kiln.too_large', `${error.message} (max_file_size_kb)`, { cause: error });
    case 'fs.exists':
      return new KilnToolError('kiln.exists', `A note already exists at "${rel}"; use update_note to change it`, { cause: error });
    case 'fs.path_too_long':
      return new KilnToolError('kiln.invalid_arguments', error.message, { cause: error });
    default:
      return error;
  }
}
