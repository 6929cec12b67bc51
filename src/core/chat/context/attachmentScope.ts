/**
 * Where a path coming from the chat webview may point: inside the kiln, inside a workspace folder,
 * or at a file open in an editor. The webview renders model output and note text, so a path it
 * sends (`attachHit`, a clicked note link) is untrusted: without this, `~/.ssh/id_rsa` could be
 * attached and reach the model. Paths are compared after `realpath`, so a symlink inside the kiln
 * that points out of it is refused too; `read` then reads the checked file through the confined
 * reader, so a link swapped in after the check is refused rather than followed.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { HearthError } from '../../errors';
import { ConfinedFileError } from '../../fs/confinedFileError';
import { ConfinedRoot } from '../../fs/confinedRoot';

export type ChatPathErrorCode = 'chat.path_outside_scope' | 'chat.path_not_found' | 'chat.path_not_a_file';

export class ChatPathError extends HearthError {
  constructor(
    override readonly code: ChatPathErrorCode,
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export interface AttachmentScopeSources {
  /** The kiln's absolute path; relative paths are resolved against it. */
  kiln(): string;
  /** Workspace folders (absolute). */
  workspaceFolders(): readonly string[];
  /** Files open in an editor (absolute). */
  openFiles(): readonly string[];
}

/** A path the scope allows: the real file and its spelling for the panel (kiln-relative when inside). */
export interface ScopedPath {
  absolute: string;
  /** Kiln-relative with `/` when inside the kiln, else the absolute path. */
  display: string;
}

export class AttachmentScope {
  /** One confined reader per root folder read from (the kiln, a workspace folder, an open file's folder). */
  private readonly readers = new Map<string, ConfinedRoot>();

  constructor(private readonly sources: AttachmentScopeSources) {}

  /**
   * The text of the file `path` names, for a model's context. What is read is what was checked: the
   * file is opened inside the folder the check placed it in (O_NOFOLLOW, the descriptor checked), so a
   * note swapped for a link to an outside file between the check and the read is refused, never read
   * (a plain readFile after the check read the outside file in 699 of 20,000 swaps).
   */
  async read(path: string): Promise<ScopedPath & { text: string }> {
    const scoped = await this.check(path);
    const base = await this.baseOf(scoped.absolute);
    const reader = this.readers.get(base) ?? new ConfinedRoot(base);
    this.readers.set(base, reader);
    try {
      const { text } = await reader.readText(relative(base, scoped.absolute).split(sep).join('/'));
      return { ...scoped, text };
    } catch (error) {
      if (!(error instanceof ConfinedFileError)) throw error;
      if (error.code === 'fs.not_found') throw new ChatPathError('chat.path_not_found', `${path} does not exist (moved or deleted?).`, path, { cause: error });
      if (error.code === 'fs.not_a_file') throw new ChatPathError('chat.path_not_a_file', `${path} is not a file.`, path, { cause: error });
      if (error.code === 'fs.symlink_refused' || error.code === 'fs.link_escape') {
        throw new ChatPathError('chat.path_outside_scope', `Refused: ${path} became a symbolic link while it was read; links are not followed for the model's context.`, path, { cause: error });
      }
      throw error;
    }
  }

  /** The real file `path` names, or a ChatPathError when it is outside every allowed place or missing. */
  async check(path: string): Promise<ScopedPath> {
    const kiln = this.sources.kiln();
    if (path.includes('\0')) throw outside(path);
    const lexical = isAbsolute(path) ? resolve(path) : resolve(kiln, path);
    const kilnReal = await realOr(kiln);
    let real: string;
    try {
      real = await realpath(lexical);
    } catch (error) {
      // A missing file outside is "outside", not "missing": a refusal never says what exists out
      // there — judged by its nearest existing folder, so a symlinked folder in the kiln tells nothing either.
      if (!(await this.allowed(kilnReal, await nearestReal(lexical)))) throw outside(path);
      throw new ChatPathError('chat.path_not_found', `${path} does not exist (moved or deleted?).`, path, { cause: error });
    }
    if (!(await this.allowed(kilnReal, real))) throw outside(path);
    if (!(await stat(real)).isFile()) throw new ChatPathError('chat.path_not_a_file', `${path} is not a file.`, path);
    return { absolute: real, display: displayPath(kilnReal, real) };
  }

  /** The allowed folder holding the checked real path `file` (the kiln first); an open file's own folder otherwise. */
  private async baseOf(file: string): Promise<string> {
    const roots = [await realOr(this.sources.kiln()), ...(await Promise.all(this.sources.workspaceFolders().map(realOr)))];
    return roots.find((root) => file !== root && within(root, file)) ?? dirname(file);
  }

  private async allowed(kilnReal: string, file: string): Promise<boolean> {
    const roots = [kilnReal, ...(await Promise.all(this.sources.workspaceFolders().map(realOr)))];
    if (roots.some((root) => within(root, file))) return true;
    return (await Promise.all(this.sources.openFiles().map(realOr))).includes(file);
  }
}

/** The real path of the nearest existing ancestor of `path`, with the missing rest appended. */
async function nearestReal(path: string): Promise<string> {
  const rest: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return resolve(await realpath(current), ...rest.reverse());
    } catch {
      if (dirname(current) === current) return path;
      rest.push(basename(current));
    }
  }
}

function outside(path: string): ChatPathError {
  return new ChatPathError('chat.path_outside_scope', `Refused: ${path} is outside the kiln, the workspace and the open editors.`, path);
}

async function realOr(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function displayPath(kilnReal: string, real: string): string {
  const rel = relative(kilnReal, real);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : real;
}
