/**
 * The kiln's files as `hearth acp` sees them when its client offers `fs/*` (clientCapabilities.fs):
 * a note is read through `fs/read_text_file` (the editor's buffer, unsaved edits included) and a
 * reviewed write lands through `fs/write_text_file` (the editor applies it to its buffer and disk),
 * as ACP asks of an agent. Confinement stays Hearth's: a read is first opened inside the kiln on
 * disk (links, size limit, missing file), a write's path is checked against the kiln's real folder
 * (no link leads it out) before the client is asked. A client that fails a read falls back to disk.
 */
import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { ConfinedFileError } from '../../fs/confinedFileError';
import { confinePath, type ConfinedPath } from '../../fs/confinedPath';
import { ConfinedRoot, type ConfinedRead, type WriteMode } from '../../fs/confinedRoot';
import { describeError } from '../../errors';
import type { Logger } from '../../host';

/** The client's side of `fs/*` for one session; each is present only when the client offered it. */
export interface ClientFileAccess {
  readTextFile?(path: string): Promise<string>;
  writeTextFile?(path: string, content: string): Promise<void>;
}

export class ClientFiles extends ConfinedRoot {
  constructor(
    root: string,
    private readonly client: ClientFileAccess,
    private readonly log: Logger,
  ) {
    super(root);
  }

  override async readText(input: string | ConfinedPath, options: { maxBytes?: number } = {}): Promise<ConfinedRead & { text: string }> {
    const onDisk = await super.readText(input, options);
    if (!this.client.readTextFile) return onDisk;
    try {
      const text = await this.client.readTextFile(join(await this.realRoot(), onDisk.relative));
      if (options.maxBytes !== undefined && Buffer.byteLength(text) > options.maxBytes) return onDisk;
      return { ...onDisk, text };
    } catch (error) {
      this.log.debug(`fs/read_text_file of ${onDisk.relative} failed (${describeError(error)}); read from disk`);
      return onDisk;
    }
  }

  override async write(
    input: string | ConfinedPath,
    data: Uint8Array | string,
    mode: WriteMode = 'upsert',
    inspect?: (realRelative: string) => void,
  ): Promise<{ relative: string; created: boolean }> {
    if (!this.client.writeTextFile) return super.write(input, data, mode, inspect);
    const path = typeof input === 'string' ? confinePath(input) : input;
    const root = await this.realRoot();
    const target = join(root, ...path.segments);
    // A link at the name itself would have the client write through it (ConfinedRoot replaces it instead).
    if ((await lstat(target).catch(() => undefined))?.isSymbolicLink()) {
      throw new ConfinedFileError('fs.outside_root', `Path "${path.relative}" is not allowed: it is a link`, path.relative);
    }
    const real = await realTarget(target);
    const realRelative = relative(root, real);
    if (realRelative === '' || realRelative.startsWith(`..${sep}`) || realRelative === '..') {
      throw new ConfinedFileError('fs.outside_root', `Path "${path.relative}" is not allowed: a link leads it out of the kiln`, path.relative);
    }
    inspect?.(realRelative.split(sep).join('/'));
    const existed = (await this.stat(path)) !== undefined;
    if (mode === 'create' && existed) throw new ConfinedFileError('fs.exists', `"${path.relative}" already exists`, path.relative);
    if (mode === 'replace' && !existed) throw new ConfinedFileError('fs.not_found', `Nothing at "${path.relative}"`, path.relative);
    await this.client.writeTextFile(real, typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
    return { relative: path.relative, created: !existed };
  }
}

/** The real path a write to `target` reaches: its deepest existing ancestor resolved (links followed), the rest appended. */
async function realTarget(target: string): Promise<string> {
  const rest: string[] = [];
  let current = target;
  for (;;) {
    try {
      return join(await realpath(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return target;
      rest.push(current.slice(parent.length + 1));
      current = parent;
    }
  }
}
