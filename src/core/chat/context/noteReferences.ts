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

/**
 * Which of the kiln's note paths the token pattern cannot take whole (`techniques/Companion
 * Planting.md`, `Tomatoes (cherry).md`): only those need to be known to link a reply, so only those
 * travel to the panel.
 */
export function needsKnownPath(path: string): boolean {
  return /[\s`'"<>()[\]{}|*]/u.test(path) && isKilnRelativeNotePath(path);
}

// What may not sit right before a path (it would be the tail of a longer word or path).
const PATH_BEFORE = /[\p{L}\p{N}_/.:\\~-]/u;
const LINE_AFTER = /^:(\d{1,7})(?:-\d{1,7})?(?![\w/])/u;

/**
 * Each place a known path (one with spaces, parentheses…) occurs in `text` as a whole token, with its
 * line. Looked for only where the text has `.md` (a streamed reply is scanned every frame), in the
 * file's own spelling and in NFC (what a model writes for a name saved decomposed).
 */
function knownPathReferences(text: string, known: readonly string[]): NoteReference[] {
  const spellings: { path: string; spelled: string }[] = [];
  for (const path of known) {
    if (!/\.md$/i.test(path)) continue;
    spellings.push({ path, spelled: path });
    const nfc = path.normalize('NFC');
    if (nfc !== path) spellings.push({ path, spelled: nfc });
  }
  const found: NoteReference[] = [];
  const ends = /\.md/giu;
  for (let m = ends.exec(text); m && found.length < MAX_NOTE_LINKS; m = ends.exec(text)) {
    const tail = m.index + m[0].length;
    for (const { path, spelled } of spellings) {
      const at = tail - spelled.length;
      if (at < 0 || !text.startsWith(spelled, at)) continue;
      if (at > 0 && PATH_BEFORE.test(text[at - 1]!)) continue;
      let end = tail;
      const line = LINE_AFTER.exec(text.slice(end, end + 20));
      if (line) end += line[0].length;
      else if (/^[\w/]/.test(text.slice(end, end + 1))) continue;
      const lineNo = line ? Number(line[1]) : undefined;
      found.push({ start: at, end, target: path, kind: 'path', ...(lineNo !== undefined && lineNo >= 1 ? { line: lineNo } : {}) });
    }
  }
  // Overlaps: the earlier start wins, then the longer path (`a b.md` inside `x/a b.md` loses).
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: NoteReference[] = [];
  for (const ref of found) if (!kept.length || ref.start >= kept[kept.length - 1]!.end) kept.push(ref);
  return kept;
}

/**
 * Every reference in `text`, in order, at most `limit`. `known` are the kiln's note paths that the
 * token pattern cannot take whole (see needsKnownPath): where one occurs it is linked as a whole.
 */
export function findNoteReferences(text: string, limit = MAX_NOTE_LINKS, known: readonly string[] = []): NoteReference[] {
  const whole = known.length > 0 ? knownPathReferences(text, known) : [];
  if (whole.length === 0) return tokenReferences(text, limit);
  const overlaps = (ref: NoteReference) => whole.some((w) => ref.start < w.end && w.start < ref.end);
  return [...whole, ...tokenReferences(text, limit).filter((ref) => !overlaps(ref))].sort((a, b) => a.start - b.start).slice(0, limit);
}

function tokenReferences(text: string, limit: number): NoteReference[] {
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
