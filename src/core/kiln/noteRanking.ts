/**
 * Ranking the kiln's notes by a fuzzy match on title and path, shared by the chat composer's
 * mentions and the editor's `[[` completion: consecutive letters and word starts count extra, title
 * matches more than path matches, the newest first when equally good.
 */

export interface NoteEntry {
  path: string;
  /** The file name without `.md`. */
  title: string;
  mtime: number;
}

export const MAX_COMPLETIONS = 20;

/**
 * How well `query` matches `text` as a subsequence (case-insensitive): higher is better, undefined
 * when it does not match. Consecutive letters and a match at a word start count extra.
 */
export function fuzzyScore(query: string, text: string): number | undefined {
  return foldedScore(query.toLowerCase(), text.toLowerCase());
}

const isWordBreak = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '/' || c === '_' || c === '-' || c === '.';

/** fuzzyScore of a query and a text both already lower-cased (rankNotes folds each note's names once). */
function foldedScore(q: string, t: string): number | undefined {
  if (!q) return 0;
  let score = 0;
  let at = -1;
  let run = 0;
  for (const ch of q) {
    const next = t.indexOf(ch, at + 1);
    if (next < 0) return undefined;
    run = next === at + 1 ? run + 1 : 0;
    const wordStart = next === 0 || isWordBreak(t[next - 1]);
    score += 1 + run * 2 + (wordStart ? 3 : 0);
    at = next;
  }
  if (t.startsWith(q)) score += 10;
  return score - t.length * 0.01;
}

/** Each note entry's names lower-cased once: typing re-ranks the same entries on every key. */
const folded = new WeakMap<NoteEntry, { title: string; path: string }>();

function foldedOf(note: NoteEntry): { title: string; path: string } {
  let names = folded.get(note);
  if (!names) folded.set(note, (names = { title: note.title.toLowerCase(), path: note.path.toLowerCase() }));
  return names;
}

/** Notes matching `query`, best first; ties go to the newest. Title matches count more than path matches. */
export function rankNotes<T extends NoteEntry>(notes: readonly T[], query: string, limit = MAX_COMPLETIONS): T[] {
  const q = query.toLowerCase();
  const order = (a: { note: T; score: number }, b: { note: T; score: number }) => b.score - a.score || b.note.mtime - a.note.mtime || a.note.path.localeCompare(b.note.path);
  // The best `limit` kept in order as they come (the same answer as sorting all and slicing): a
  // short query matches nearly every note, and sorting them all was most of the work.
  const best: { note: T; score: number }[] = [];
  for (const note of notes) {
    const names = foldedOf(note);
    const title = foldedScore(q, names.title);
    const path = foldedScore(q, names.path);
    if (title === undefined && path === undefined) continue;
    const entry = { note, score: Math.max(title === undefined ? -Infinity : title * 2, path ?? -Infinity) };
    if (best.length >= limit && order(entry, best[best.length - 1]) >= 0) continue;
    let at = best.length;
    while (at > 0 && order(entry, best[at - 1]) < 0) at--;
    best.splice(at, 0, entry);
    if (best.length > limit) best.pop();
  }
  return best.map((s) => s.note);
}
