import { ConfinedRoot } from '../fs/confinedRoot';
import { mapLimit, scanKiln, type ScannedNote, type ScanRules } from './kilnScanner';
import { parseNote, type ParsedNote } from './note';

const READ_AHEAD = 16;

/** Which notes a walk visits: the scan rules, and optionally one (already confined) kiln-relative folder. */
export interface WalkScope extends ScanRules {
  folder?: string;
}

/**
 * Visits the kiln's notes straight from disk (no index needed), in path order, skipping notes that
 * cannot be read, are over `max_file_size_kb`, or that the parser skips. Every read is confined: a
 * note swapped for a link out of the kiln since the listing is skipped, not read. Reads a few notes
 * at a time and stops as soon as `enough()` says so, so the first hits of a search are found
 * without reading the whole kiln. `mayMatch` leaves out, unread, notes a caller knows cannot match.
 */
export async function walkNotes(
  kiln: ConfinedRoot | string, scope: WalkScope, enough: () => boolean, visit: (note: ParsedNote) => void, signal?: AbortSignal, mayMatch?: (note: ScannedNote) => boolean,
): Promise<void> {
  const files = typeof kiln === 'string' ? new ConfinedRoot(kiln) : kiln;
  const scanned = (await scanKiln(files, scope, scope.folder ?? '')).notes;
  const notes = mayMatch ? scanned.filter(mayMatch) : scanned;
  const maxBytes = scope.max_file_size_kb * 1024;
  for (let i = 0; i < notes.length && !enough(); i += READ_AHEAD) {
    signal?.throwIfAborted();
    const group = notes.slice(i, i + READ_AHEAD);
    const texts = await mapLimit(group, READ_AHEAD, (n) => files.readText(n.path, { maxBytes }).then((read) => read.text, () => undefined));
    group.forEach((scanned, j) => {
      const text = texts[j];
      if (text === undefined || enough()) return;
      const note = parseNote(scanned.path, text);
      if (!note.skipped) visit(note);
    });
  }
}
