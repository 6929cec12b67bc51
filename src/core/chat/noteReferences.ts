/**
 * References to notes inside a reply — `[[Note]]`, `[[Note#Heading|alias]]`, `path.md`,
 * `path.md:12`, `path.md:12-20` — found so the panel can turn them into links that open the note.
 * Only kiln-relative references qualify: absolute paths, `~`, drive letters, `..` segments, URLs
 * and anything with a scheme never become note links (the host confines the click to the kiln
 * again). Linear in the text: one regex pass, a cap on how many are linked.
 *
 * Free of `vscode`, DOM and Node APIs: bundled into the webview.
 */

export interface NoteReference {
  /** Offsets in the scanned text, end exclusive. */
  start: number;
  end: number;
  /** A kiln-relative path (`a/b.md`) or, for a wiki link, the note's name as written (`Note`). */
  target: string;
  kind: 'path' | 'wikilink';
  line?: number;
}

/** A reply links at most this many references; the rest stay text (a 10 000-link reply stays responsive). */
export const MAX_NOTE_LINKS = 500;

// A path token: no spaces (a sentence's words are not a path), ends in .md, optional :line[-line].
// Wiki links: [[target#heading|alias]] without brackets or newlines inside.
const PATTERN = /\[\[([^[\]\n|#]{1,300})(?:#[^[\]\n|]{0,300})?(?:\|[^[\]\n]{0,300})?\]\]|((?<![\p{L}\p{N}_/.:\\~-])[^\s`'"<>()[\]{}|*]{1,400}?\.md)(?::(\d{1,7})(?:-\d{1,7})?)?(?![\w/])/giu;

/** Whether `target` is a kiln-relative note path (never absolute, `..`, a URL or a scheme). */
export function isKilnRelativeNotePath(target: string): boolean {
  if (!target || target.length > 1_000 || /[\0\r\n]/.test(target)) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return false; // http:, file:, command:, C:
  if (target.startsWith('/') || target.startsWith('\\') || target.startsWith('~')) return false;
  const segments = target.split(/[\\/]/);
  return !segments.some((s) => s === '..' || s === '.');
}

/** Whether a wiki-link name may be looked up in the kiln (no path tricks: it names a note). */
export function isWikiName(name: string): boolean {
  const trimmed = name.trim();
  return trimmed.length > 0 && isKilnRelativeNotePath(trimmed);
}

/** Every reference in `text`, in order, at most `limit`. */
export function findNoteReferences(text: string, limit = MAX_NOTE_LINKS): NoteReference[] {
  const found: NoteReference[] = [];
  PATTERN.lastIndex = 0;
  for (let match = PATTERN.exec(text); match && found.length < limit; match = PATTERN.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    if (match[1] !== undefined) {
      const name = match[1].trim();
      if (isWikiName(name)) found.push({ start, end, target: name, kind: 'wikilink' });
      continue;
    }
    const path = match[2]!;
    // A URL's tail (`https://x.org/a.md`) is not a note: the scheme sits right before the match.
    if (/[a-z][a-z0-9+.-]*:\/*$/i.test(text.slice(Math.max(0, start - 40), start))) continue;
    if (!isKilnRelativeNotePath(path)) continue;
    const line = match[3] !== undefined ? Number(match[3]) : undefined;
    found.push({ start, end, target: path, kind: 'path', ...(line !== undefined && line >= 1 ? { line } : {}) });
  }
  return found;
}

/** The whole of `text` as one reference (an inline code span holding a path with spaces), or undefined. */
export function wholeReference(text: string): NoteReference | undefined {
  const match = /^([^\n`<>|*]{1,400}?\.md)(?::(\d{1,7})(?:-\d{1,7})?)?$/iu.exec(text.trim());
  if (!match || !isKilnRelativeNotePath(match[1]!)) return undefined;
  const line = match[2] !== undefined ? Number(match[2]) : undefined;
  return { start: 0, end: text.length, target: match[1]!, kind: 'path', ...(line !== undefined && line >= 1 ? { line } : {}) };
}
