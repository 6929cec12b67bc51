import { ConfinedRoot } from '../fs/confinedRoot.js';
import { mapLimit, scanKiln, type ScanRules } from '../kiln/kilnScanner.js';
import { parseNote, type ParsedNote } from '../kiln/note.js';

const READ_AHEAD = 16;

/**
 * Visits the kiln's notes straight from disk (no index needed), in path order, skipping notes that
 * cannot be read or that the parser skips. Reads a few notes at a time and stops as soon as
 * `enough()` says so, so the first hits of a search are found without reading the whole kiln.
 */
export async function walkNotes(kilnRoot: string, rules: ScanRules, enough: () => boolean, visit: (note: ParsedNote) => void, signal?: AbortSignal): Promise<void> {
  const files = new ConfinedRoot(kilnRoot);
  const { notes } = await scanKiln(files, rules);
  for (let i = 0; i < notes.length && !enough(); i += READ_AHEAD) {
    signal?.throwIfAborted();
    const group = notes.slice(i, i + READ_AHEAD);
    const texts = await mapLimit(group, READ_AHEAD, (n) => files.readText(n.path).then((read) => read.text, () => undefined));
    group.forEach((scanned, j) => {
      const text = texts[j];
      if (text === undefined || enough()) return;
      const note = parseNote(scanned.path, text);
      if (!note.skipped) visit(note);
    });
  }
}
