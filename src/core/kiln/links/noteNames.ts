import { folderOf, joinInside, nameKey, noteKey, type LinkQuery } from './linkTargets';

/** Where a link leads: a note, possibly one of several candidates (reported, not guessed silently). */
export interface Resolution {
  /** Kiln-relative path of the note, when one is found. */
  path?: string;
  /** Every note the link could mean when more than one matches; `path` is the shortest of them. */
  ambiguous?: string[];
  /** The target climbs out of the kiln (`[[../../etc/passwd]]`): never a note. */
  outside?: boolean;
}

/**
 * The kiln's notes by the names a link may use: path, file name and frontmatter `aliases`, each
 * case-insensitive. Resolution follows Obsidian: the exact path (from the kiln root, then from the
 * linking note's folder for relative links), then the notes whose path ends with the target (the
 * file name when the target has no folder), shortest path first, then aliases.
 */
export class NoteNames {
  private readonly byKey = new Map<string, string>();
  private readonly byName = new Map<string, Set<string>>();
  private readonly byAlias = new Map<string, Set<string>>();

  add(path: string, aliases: readonly string[]): void {
    this.byKey.set(noteKey(path), path);
    addTo(this.byName, nameKey(path), path);
    for (const alias of aliases) addTo(this.byAlias, alias.toLowerCase(), path);
  }

  remove(path: string, aliases: readonly string[]): void {
    if (this.byKey.get(noteKey(path)) === path) this.byKey.delete(noteKey(path));
    removeFrom(this.byName, nameKey(path), path);
    for (const alias of aliases) removeFrom(this.byAlias, alias.toLowerCase(), path);
  }

  /** Notes whose file name (or path tail) matches `key`, e.g. for `[[` completion of a typed name. */
  named(key: string): readonly string[] {
    return [...(this.byName.get(key) ?? [])];
  }

  resolve(query: LinkQuery, source: string): Resolution {
    if (!query.key) return {};
    if (query.relative) {
      const joined = joinInside(folderOf(source), query.key);
      if (joined === undefined) return { outside: true };
      const hit = this.byKey.get(joined);
      return hit ? { path: hit } : {};
    }
    if (query.key.includes('..') && query.key.split('/').includes('..')) return { outside: true };
    const exact = this.byKey.get(query.key);
    if (exact) return { path: exact };
    const name = query.key.slice(query.key.lastIndexOf('/') + 1);
    const named = this.byName.get(name);
    // A bare name (most links): every note of that file name is a candidate, no path compared.
    if (named && named.size === 1 && query.key === name) return { path: named.values().next().value! };
    const suffix = `/${query.key}`;
    const byName = [...(named ?? [])].filter((path) => query.key === name || noteKey(path).endsWith(suffix));
    if (byName.length > 0) return pick(byName);
    if (query.key === name) {
      const byAlias = this.byAlias.get(query.key);
      if (byAlias && byAlias.size > 0) return pick([...byAlias]);
    }
    return {};
  }
}

/** One candidate resolves; several resolve to the shortest path (then the first in path order) and are reported. */
function pick(candidates: string[]): Resolution {
  if (candidates.length === 1) return { path: candidates[0] };
  const sorted = candidates.sort((a, b) => depth(a) - depth(b) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return { path: sorted[0], ambiguous: sorted };
}

function depth(path: string): number {
  let n = 0;
  for (const c of path) if (c === '/') n++;
  return n;
}

export function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

export function removeFrom(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
