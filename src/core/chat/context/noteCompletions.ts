/**
 * Note mentions in the chat composer (`@compost`, `[[compost`, `@compost#browns`): the kiln's notes
 * ranked by a fuzzy match on title and path (newest first when equally good), and a note's
 * headings with their line ranges. The list of notes is read from disk (file names and times, no
 * note text) and kept for a few seconds, so typing does not walk the kiln on every key.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readKilnNote } from './kilnNoteTarget';
import { needsKnownPath } from './noteReferences';
import { fuzzyScore, MAX_COMPLETIONS, rankNotes, type NoteEntry } from '../../kiln/noteRanking';

/** One row of the completion list; picking it attaches `path` (and the heading's lines). */
export interface NoteCompletion {
  path: string;
  title: string;
  heading?: string;
  startLine?: number;
  endLine?: number;
}

const MAX_NOTES = 50_000;
const CACHE_MS = 5_000;
/** Paths sent to the panel for linking; a kiln with more such names links the rest by code span. */
const MAX_KNOWN_PATHS = 5_000;

/** A note's headings (outside code fences), each with the lines up to the next heading of its level or above. */
export function headingsOf(text: string): { heading: string; level: number; startLine: number; endLine: number }[] {
  const lines = text.split('\n');
  const found: { heading: string; level: number; startLine: number; endLine: number }[] = [];
  let fence: string | undefined;
  lines.forEach((line, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (!fence) fence = marker[0]!;
      else if (marker[0] === fence) fence = undefined;
      return;
    }
    if (fence) return;
    const heading = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) found.push({ heading: heading[2]!, level: heading[1]!.length, startLine: index + 1, endLine: lines.length });
  });
  for (let i = 0; i < found.length; i++) {
    const next = found.slice(i + 1).find((h) => h.level <= found[i]!.level);
    if (next) found[i]!.endLine = next.startLine - 1;
  }
  return found;
}

export class NoteCatalog {
  private cached: { at: number; notes: Promise<NoteEntry[]> } | undefined;

  constructor(
    private readonly kiln: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Completions for `query`; with `heading` (typed after `#`), the best note's matching headings. */
  async complete(query: string, heading?: string): Promise<NoteCompletion[]> {
    const ranked = rankNotes(await this.notes(), query);
    if (heading === undefined) return ranked.map((n) => ({ path: n.path, title: n.title }));
    const note = ranked[0];
    if (!note) return [];
    let text: string;
    try {
      // Confined: a note swapped for a link out of the kiln is not read (its headings would reach the panel and the prompt).
      text = (await readKilnNote(this.kiln(), note.path)).text;
    } catch {
      return [];
    }
    return headingsOf(text)
      .map((h) => ({ h, score: fuzzyScore(heading, h.heading) }))
      .filter((x) => x.score !== undefined)
      .sort((a, b) => b.score! - a.score! || a.h.startLine - b.h.startLine)
      .slice(0, MAX_COMPLETIONS)
      .map(({ h }) => ({ path: note.path, title: note.title, heading: h.heading, startLine: h.startLine, endLine: h.endLine }));
  }

  /** The notes whose paths a reply can only link when known (spaces, parentheses), at most MAX_KNOWN_PATHS. */
  async linkablePaths(): Promise<string[]> {
    return (await this.notes()).map((n) => n.path).filter(needsKnownPath).slice(0, MAX_KNOWN_PATHS);
  }

  private notes(): Promise<NoteEntry[]> {
    if (this.cached && this.now() - this.cached.at < CACHE_MS) return this.cached.notes;
    const notes = listNotes(this.kiln());
    this.cached = { at: this.now(), notes };
    notes.catch(() => (this.cached = undefined));
    return notes;
  }
}

/** The kiln's `.md` files (hidden folders skipped), with their modification times. */
async function listNotes(kiln: string): Promise<NoteEntry[]> {
  const entries = (await readdir(kiln, { recursive: true }).catch(() => [] as string[])).slice(0, MAX_NOTES);
  const paths = entries.map((e) => e.replace(/\\/g, '/')).filter((p) => /\.md$/i.test(p) && !p.split('/').some((s) => s.startsWith('.')));
  const notes = await Promise.all(
    paths.map(async (path) => {
      const info = await stat(join(kiln, path)).catch(() => undefined);
      return info?.isFile() ? { path, title: path.split('/').pop()!.replace(/\.md$/i, ''), mtime: info.mtimeMs } : undefined;
    }),
  );
  return notes.filter((n): n is NoteEntry => n !== undefined);
}
