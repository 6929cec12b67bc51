import { readFile } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * The kiln's namespace in a shared database (`[processing].kiln_id`): set in the config, else the
 * git remote of the kiln's repository (so every clone of one repository shares its notes' rows),
 * else the folder name. `https://user:pw@github.com/team/notes.git` and
 * `git@github.com:team/notes.git` both give `github.com/team/notes`.
 */
export async function resolveKilnId(kilnRoot: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const remote = await readGitRemote(kilnRoot);
  const id = remote ? normalizeRemote(remote) : undefined;
  return id ?? path.basename(path.resolve(kilnRoot));
}

/** `origin`'s URL (else the first remote's) from the nearest `.git/config` at or above the kiln. */
async function readGitRemote(kilnRoot: string): Promise<string | undefined> {
  let dir = path.resolve(kilnRoot);
  for (;;) {
    const text = await readFile(path.join(dir, '.git', 'config'), 'utf8').catch(() => undefined);
    if (text !== undefined) return remoteUrl(text);
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
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
