import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

/**
 * What each note's size and modification time were when its content hash was last computed
 * (`notes.stat.json` beside the store). A re-index trusts a note unchanged without reading it when
 * its size and time are the same *and* that hash is the one the store holds, so the cache can be
 * stale or lost (a kill -9, another process) and only costs reading the note again. Times within
 * RACY_MS of the run are not recorded: a note written in the same clock tick as it was hashed could
 * change without its time changing (git's "racy" entries).
 */
export const STAT_CACHE_FILE = 'notes.stat.json';
const RACY_MS = 2000;

/**
 * `outside`: the note's lines that no chunk holds (its frontmatter, joined by newlines; '' when
 * none), recorded when the run parsed the note: `hearth search --mode text` then trusts the word
 * index for the rest of an unchanged note without reading it. Absent: unknown (the note is read).
 */
export type StatEntry = [size: number, mtimeMs: number, hash: string, outside?: string];

export class StatCache {
  private readonly next = new Map<string, StatEntry>();

  private constructor(
    private readonly file: string,
    private readonly previous: Map<string, StatEntry>,
    private readonly started: number,
  ) {}

  static async load(dir: string): Promise<StatCache> {
    const file = path.join(dir, STAT_CACHE_FILE);
    const previous = new Map<string, StatEntry>();
    try {
      const parsed = JSON.parse(await fsp.readFile(file, 'utf8')) as { version?: number; notes?: Record<string, StatEntry> };
      if (parsed.version === 1 && parsed.notes && typeof parsed.notes === 'object') {
        // One pass, no intermediate arrays: at 50k notes the entries/filter/map chain was a cold search's garbage.
        for (const [notePath, e] of Object.entries(parsed.notes)) {
          if (!Array.isArray(e) || typeof e[0] !== 'number' || typeof e[1] !== 'number' || typeof e[2] !== 'string') continue;
          // An `outside` that is not text is not trusted: the note is read as if unknown.
          previous.set(notePath, e.length > 3 && typeof e[3] !== 'string' ? [e[0], e[1], e[2]] : e);
        }
      }
    } catch {
      // None yet, or unreadable: every note is read and hashed, as without a cache.
    }
    return new StatCache(file, previous, Date.now());
  }

  /** The hash recorded for a note of this size and time, if any. */
  hashOf(notePath: string, size: number, mtimeMs: number): string | undefined {
    const entry = this.previous.get(notePath);
    if (!entry || entry[0] !== size || entry[1] !== mtimeMs) return undefined;
    this.next.set(notePath, entry);
    return entry[2];
  }

  /** The loaded entry of a note as it is (no lookup recorded): text search's prefilter reads it. */
  entry(notePath: string): StatEntry | undefined {
    return this.previous.get(notePath);
  }

  record(notePath: string, size: number, mtimeMs: number, hash: string): void {
    if (mtimeMs < this.started - RACY_MS) this.next.set(notePath, [size, mtimeMs, hash]);
  }

  /** The lines outside the chunks of a note recorded at `hash` this run (see StatEntry). */
  describe(notePath: string, hash: string, outside: string): void {
    const entry = this.next.get(notePath);
    if (entry && entry[2] === hash) this.next.set(notePath, [entry[0], entry[1], entry[2], outside]);
  }

  /** Writes what this run saw (temp + rename); a failure only means reading the notes next time. */
  async save(): Promise<void> {
    // Nothing new seen (a no-op run: every entry is the very one loaded): the file already says it.
    if (this.next.size === this.previous.size && [...this.next].every(([notePath, entry]) => this.previous.get(notePath) === entry)) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      await fsp.mkdir(path.dirname(this.file), { recursive: true });
      await fsp.writeFile(tmp, JSON.stringify({ version: 1, notes: Object.fromEntries(this.next) }));
      await fsp.rename(tmp, this.file);
    } catch {
      await fsp.rm(tmp, { force: true }).catch(() => {});
    }
  }
}
