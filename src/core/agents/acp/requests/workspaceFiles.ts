import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DEFAULT_RULES_FILES } from '../../../config/schema';
import { ConfinedFileError, ProtectedPathError } from '../../../fs/confinedFileError';
import { ConfinedRoot } from '../../../fs/confinedRoot';
import { ProtectedPaths, type ProtectedPathRules } from '../../../fs/protectedPaths';
import { WriteGate, type BeforeWrite, type ProtectedWriteConfirm } from '../../../fs/writeGate';
import { AcpError } from '../acpErrors';

/**
 * The agent's `fs/read_text_file` and `fs/write_text_file`, confined to the workspace through the
 * write gate (DESIGN.md decision 16): a path that leaves it, lexically (`..`, another absolute
 * path) or through a symlink (a link inside pointing out, or a linked parent directory, checked on
 * the opened descriptor), is refused; writes are atomic (never through a hard or symbolic link)
 * and protected paths are asked about every time (decision 15). A link that stays inside is
 * followed for reads (code trees hold them); a workspace itself reached through a link works.
 */
export class WorkspaceFiles {
  private readonly files: ConfinedRoot;
  private readonly gate: WriteGate;

  constructor(
    readonly root: string,
    private readonly maxReadBytes: number,
    protection: Omit<ProtectedPathRules, 'root'> = { rulesFiles: DEFAULT_RULES_FILES },
  ) {
    this.files = new ConfinedRoot(root, { followInnerFileLinks: true });
    this.gate = new WriteGate({ files: this.files, protectedPaths: new ProtectedPaths({ root, ...protection }) });
  }

  async read(path: string, line?: number | null, limit?: number | null): Promise<string> {
    const rel = await this.relative(path);
    let text: string;
    try {
      text = (await this.files.readText(rel, { maxBytes: this.maxReadBytes })).text;
    } catch (error) {
      throw this.asAcpError(error, path);
    }
    if (!line && !limit) return text;
    const lines = text.split('\n');
    const start = Math.max(0, (line ?? 1) - 1);
    const end = limit ? start + limit : lines.length;
    return lines.slice(start, end).join('\n');
  }

  /**
   * `beforeWrite` sees the change (bytes before and after) and applies it or refuses (review, the
   * overwrite question, the journal); `confirmProtected` is asked before creating or changing a
   * protected path, every time.
   */
  async write(path: string, content: string, beforeWrite: BeforeWrite, confirmProtected?: ProtectedWriteConfirm): Promise<void> {
    const rel = await this.relative(path);
    try {
      await this.gate.write(rel, content, { mode: 'upsert', confirmProtected, beforeWrite });
    } catch (error) {
      throw this.asAcpError(error, path);
    }
  }

  /** The workspace-relative path the agent's path stands for (lexically), or an error when it is outside. */
  async relative(path: string): Promise<string> {
    const real = await this.files.realRoot().catch(() => resolve(this.root));
    const lexical = resolve(isAbsolute(path) ? path : resolve(this.root, path));
    // Against both spellings of the root (as given and real); links are checked when opened.
    for (const root of [resolve(this.root), real]) {
      if (lexical === root) throw outside(path);
      if (lexical.startsWith(root.endsWith(sep) ? root : root + sep)) return relative(root, lexical).split(sep).join('/');
    }
    throw outside(path);
  }

  private asAcpError(error: unknown, path: string): unknown {
    if (error instanceof AcpError) return error;
    if (error instanceof ProtectedPathError) return new AcpError('acp.write_denied', error.message, undefined, { cause: error });
    if (!(error instanceof ConfinedFileError)) return error;
    switch (error.code) {
      case 'fs.not_found':
      case 'fs.not_a_file':
        return new AcpError('acp.file_not_found', `No such file in the workspace: ${path}`, undefined, { cause: error });
      case 'fs.too_large':
        return new AcpError('acp.message_too_large', `${path} is over the ${this.maxReadBytes}-byte message limit ([acp].max_message_size_mb)`, undefined, { cause: error });
      case 'fs.path_too_long':
        return new AcpError('acp.path_outside_workspace', `Refused: ${error.message}`, undefined, { cause: error });
      case 'fs.symlink_refused':
        return new AcpError('acp.path_outside_workspace', `Refused: ${path} is a symbolic link, which may lead outside the workspace; Hearth does not write through links`, undefined, { cause: error });
      case 'fs.exists':
        return new AcpError('acp.write_denied', error.message, undefined, { cause: error });
      default:
        return new AcpError('acp.path_outside_workspace', `Refused: ${path} is outside the workspace (${error.message})`, undefined, { cause: error });
    }
  }
}

function outside(path: string): AcpError {
  return new AcpError('acp.path_outside_workspace', `Refused: ${path} is outside the workspace`);
}
