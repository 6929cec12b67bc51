/**
 * How a link's target text becomes a lookup key, as Obsidian reads it: case-insensitive, `.md`
 * optional, a path from the kiln root or (markdown links, `./` and `../`) from the linking note's
 * folder. Pure string work: resolving never touches the disk, so a hostile target
 * (`[[../../etc/passwd]]`, 10,000 characters) can only fail to match.
 */

/** Longest target looked up; anything longer cannot name a note and is left unresolved. */
export const MAX_TARGET_CHARS = 1024;

/** A kiln-relative note path as a key: lowercased, without `.md`. */
export function noteKey(path: string): string {
  return path.replace(/\.md$/i, '').toLowerCase();
}

/** The file name of a note path as a key: what `[[name]]` matches. */
export function nameKey(path: string): string {
  const key = noteKey(path);
  return key.slice(key.lastIndexOf('/') + 1);
}

/** The folder of a kiln-relative path ('' at the root). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * Joins `target` onto `folder` and folds `.` and `..` lexically; undefined when it climbs above the
 * kiln root (nothing there is a note of this kiln).
 */
export function joinInside(folder: string, target: string): string | undefined {
  const out = folder ? folder.split('/') : [];
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/** What a link asks for, before resolution. */
export interface LinkQuery {
  /** Lowercased, `.md` removed, backslashes as slashes; '' when the link names no note. */
  key: string;
  /** Markdown links and `./`/`../` wikilinks are read from the linking note's folder. */
  relative: boolean;
  /** True for links that cannot be a note (a URL, an attachment, an anchor in the same note): not reported as unresolved. */
  ignored: boolean;
  /** A markdown link's `#fragment`. */
  fragment?: string;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const OTHER_EXTENSION = /\.(?!md$)[A-Za-z0-9]{1,8}$/i;

export function wikiQuery(target: string): LinkQuery {
  if (target.length > MAX_TARGET_CHARS) return { key: target.slice(0, 64).toLowerCase(), relative: false, ignored: false };
  const clean = target.replace(/\\/g, '/').trim();
  if (OTHER_EXTENSION.test(clean)) return { key: '', relative: false, ignored: true };
  return { key: noteKey(clean.replace(/^\/+/, '')), relative: clean.startsWith('./') || clean.startsWith('../'), ignored: false };
}

export function markdownQuery(target: string): LinkQuery {
  if (target.length > MAX_TARGET_CHARS || SCHEME.test(target) || target.startsWith('#') || target.startsWith('//')) return { key: '', relative: false, ignored: true };
  const hash = target.indexOf('#');
  let path = hash < 0 ? target : target.slice(0, hash);
  try {
    path = decodeURIComponent(path);
  } catch {
    // A stray `%` is read literally, as editors do.
  }
  path = path.replace(/\\/g, '/');
  if (!path || OTHER_EXTENSION.test(path)) return { key: '', relative: false, ignored: true };
  const fragment = hash < 0 ? undefined : target.slice(hash + 1);
  const rooted = path.startsWith('/');
  return { key: noteKey(rooted ? path.replace(/^\/+/, '') : path), relative: !rooted, ignored: false, ...(fragment ? { fragment } : {}) };
}

/** The last `#` part of a wikilink fragment (`[[a#h1#h2]]` goes to h2), normalized for comparison. */
export function fragmentKey(fragment: string): string {
  const last = fragment.slice(fragment.lastIndexOf('#') + 1);
  return last.trim().replace(/\s+/g, ' ').toLowerCase();
}
