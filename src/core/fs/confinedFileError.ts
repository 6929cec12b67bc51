import { HearthError } from '../errors';

export type ConfinedFileErrorCode =
  /** Absolute, `..`, NUL, `~` or the root itself: the path was refused before touching the disk. */
  | 'fs.outside_root'
  /** Over 4,096 characters, or a segment over 255 bytes: no file system takes it, and a deep tree must not be built one folder at a time. */
  | 'fs.path_too_long'
  /** A symbolic link (of the file or a parent folder) leads outside the root, checked on the opened descriptor. */
  | 'fs.link_escape'
  /** The file itself is a symbolic link; confined reads and writes never follow one. */
  | 'fs.symlink_refused'
  | 'fs.not_found'
  | 'fs.not_a_file'
  | 'fs.too_large'
  | 'fs.exists';

/** A refusal or failure of the confined-file module; callers branch on `code`, the message says what happened. */
export class ConfinedFileError extends HearthError {
  constructor(
    override readonly code: ConfinedFileErrorCode,
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export type ProtectedPathErrorCode =
  /** The user was asked and said no (or closed the prompt). */
  | 'fs.protected_declined'
  /** Nobody could be asked (e.g. `hearth gateway` over stdio without a terminal or elicitation): refused. */
  | 'fs.protected_unconfirmed';

/** A write to a protected path (DESIGN.md decision 15) that was not confirmed. */
export class ProtectedPathError extends HearthError {
  constructor(
    override readonly code: ProtectedPathErrorCode,
    message: string,
    readonly path: string,
    readonly reason: string,
  ) {
    super(code, message);
  }
}
