import { lstat, mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { AcpError } from './acpErrors';

/**
 * The agent's `fs/read_text_file` and `fs/write_text_file`, confined to the workspace: a path that
 * leaves it, lexically (`..`, another absolute path) or through a symlink (a link inside pointing
 * out, or a linked parent directory), is refused. Real paths are compared, so a workspace that is
 * itself reached through a symlink still works.
 */
export class WorkspaceFiles {
  private rootReal: Promise<string>;

  constructor(
    readonly root: string,
    private readonly maxReadBytes: number,
  ) {
    this.rootReal = realpath(root);
  }

  async read(path: string, line?: number | null, limit?: number | null): Promise<string> {
    const target = await this.confine(path);
    const info = await stat(target).catch(() => undefined);
    if (!info?.isFile()) throw new AcpError('acp.file-not-found', `No such file in the workspace: ${path}`);
    if (info.size > this.maxReadBytes) throw new AcpError('acp.message-too-large', `${path} is ${info.size} bytes, over the ${this.maxReadBytes}-byte message limit ([acp].max_message_size_mb)`);
    const text = await readFile(target, 'utf8');
    if (!line && !limit) return text;
    const lines = text.split('\n');
    const start = Math.max(0, (line ?? 1) - 1);
    const end = limit ? start + limit : lines.length;
    return lines.slice(start, end).join('\n');
  }

  /** `confirmOverwrite` is asked before replacing an existing file; false refuses the write. */
  async write(path: string, content: string, confirmOverwrite: (relativePath: string) => Promise<boolean>): Promise<void> {
    const target = await this.confine(path);
    const existing = await stat(target).catch(() => undefined);
    if (existing && !existing.isFile()) throw new AcpError('acp.write-denied', `${path} is not a file`);
    const root = await this.rootReal;
    if (existing && !(await confirmOverwrite(relative(root, target)))) {
      throw new AcpError('acp.write-denied', `The user did not allow overwriting ${relative(root, target)}`);
    }
    await mkdir(dirname(target), { recursive: true });
    // The parent may have been created just now; check the finished path once more.
    await this.confine(target);
    await writeFile(target, content, 'utf8');
  }

  /** The real path the agent's path stands for, or an error when it is outside the workspace. */
  async confine(path: string): Promise<string> {
    const root = await this.rootReal;
    const lexical = resolve(isAbsolute(path) ? path : resolve(this.root, path));
    // Lexical check against both spellings of the root (as given and real).
    if (!within(resolve(this.root), lexical) && !within(root, lexical)) throw outside(path);
    const real = await realOrNearest(lexical);
    if (real === undefined || !within(root, real)) throw outside(path);
    return real;
  }
}

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function outside(path: string): AcpError {
  return new AcpError('acp.path-outside-workspace', `Refused: ${path} is outside the workspace`);
}

/**
 * The real path of `path`, or of its nearest existing ancestor with the rest appended; undefined
 * for a dangling symlink on the way, whose target (maybe outside) a write would create.
 */
async function realOrNearest(path: string): Promise<string | undefined> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length ? resolve(real, ...rest.reverse()) : real;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      if (await lstat(current).then(() => true, () => false)) return undefined;
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length).replace(/^[/\\]/, ''));
      current = parent;
    }
  }
}
