import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * The kiln's namespace in a shared database (`[processing].kiln_id`): set in the config, else the
 * git remote of the kiln's repository (so every clone of one repository shares its notes' rows),
 * else the folder name with a short hash of its real path (`notes-3f2a9c1b`, folderKilnId).
 * `https://user:pw@github.com/team/notes.git` and `git@github.com:team/notes.git` both give `github.com/team/notes`. A kiln below the repository's
 * root gets its folder inside the repository appended (`github.com/team/mono/docs`): two kilns of
 * one repository must never share a namespace (each run would drop the other's notes as deleted),
 * while every clone still agrees on the id.
 */
export async function resolveKilnId(kilnRoot: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const kiln = path.resolve(kilnRoot);
  const repo = await readGitRemote(kiln);
  const id = repo ? normalizeRemote(repo.remote) : undefined;
  if (!id || !repo) return folderKilnId(kiln);
  const inside = path.relative(repo.root, kiln).split(path.sep).join('/');
  return inside ? `${id}/${inside}` : id;
}

/**
 * The id of a kiln without a remote: its folder's name alone made every `notes` folder on every
 * machine one namespace, each run deleting the other's rows. The real path's hash keeps them apart
 * (a link to the kiln gets the kiln's id) while the name keeps the id readable.
 */
export async function folderKilnId(kiln: string): Promise<string> {
  const real = await realpath(kiln).catch(() => kiln);
  return `${path.basename(real) || 'kiln'}-${createHash('sha256').update(real).digest('hex').slice(0, 8)}`;
}

/**
 * `origin`'s URL (else the first remote's) from the nearest repository at or above the kiln, and
 * that repository's working-tree root. `.git` may be a file (`gitdir: …`, as in linked worktrees
 * and submodules): its config is then in that git dir, or in the `commondir` it names.
 */
async function readGitRemote(kiln: string): Promise<{ remote: string; root: string } | undefined> {
  let dir = kiln;
  for (;;) {
    const config = await gitConfigText(path.join(dir, '.git'));
    if (config !== undefined) {
      const remote = remoteUrl(config);
      return remote ? { remote, root: dir } : undefined;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Git's own files are small; a kiln folder is not trusted to keep them so (a huge `.git` file is skipped). */
const MAX_GIT_FILE = 1 << 20;

async function readSmall(file: string): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_GIT_FILE) return undefined;
  return readFile(file, 'utf8').catch(() => undefined);
}

async function gitConfigText(dotGit: string): Promise<string | undefined> {
  const direct = await readSmall(path.join(dotGit, 'config'));
  if (direct !== undefined) return direct;
  const pointer = await readSmall(dotGit);
  const gitdir = pointer === undefined ? undefined : /^gitdir:\s*(.+?)\s*$/m.exec(pointer)?.[1];
  if (!gitdir) return undefined;
  const dir = path.resolve(path.dirname(dotGit), gitdir);
  const common = (await readSmall(path.join(dir, 'commondir')))?.trim();
  const configDir = common ? path.resolve(dir, common) : dir;
  // A `.git` file that points nowhere readable counts as a repository without a remote.
  return (await readSmall(path.join(configDir, 'config'))) ?? '';
}

/** The url of `[remote "origin"]`, else of the first remote section, in git's config format. */
export function remoteUrl(configText: string): string | undefined {
  const urls = new Map<string, string>();
  let section: string | undefined;
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*remote\s+"([^"]*)"\s*\]$/.exec(line);
    if (header) section = header[1];
    else if (line.startsWith('[')) section = undefined;
    else if (section !== undefined && !urls.has(section)) {
      const kv = /^url\s*=\s*(.+)$/i.exec(line);
      if (kv) urls.set(section, kv[1].trim().replace(/^"(.*)"$/, '$1'));
    }
  }
  return urls.get('origin') ?? urls.values().next().value;
}

/** host/path of a remote, without scheme, userinfo, port, `.git` or trailing slashes; undefined when unusable. */
export function normalizeRemote(remote: string): string | undefined {
  let host: string;
  let repoPath: string;
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(remote);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote)) {
    let url: URL;
    try {
      url = new URL(remote);
    } catch {
      return undefined;
    }
    host = url.hostname;
    repoPath = decodeURIComponent(url.pathname);
  } else if (scp) {
    host = scp[1];
    repoPath = scp[2];
  } else return undefined;
  const cleaned = repoPath.replace(/^\/+|\/+$/g, '').replace(/\.git$/i, '').replace(/^~[^/]*\//, '');
  if (!host || !cleaned) return undefined;
  return `${host.toLowerCase()}/${cleaned}`;
}
