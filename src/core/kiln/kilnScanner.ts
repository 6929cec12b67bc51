import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ProcessingConfig } from '../config/schema';
import { ConfinedRoot } from '../fs/confinedRoot';
import { excludeMatcher, listNotePaths } from './kilnWalk';
import { ALWAYS_EXCLUDED, isNotePath } from './notePaths';

export interface ScannedNote {
  /** Kiln-relative, forward slashes. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface KilnScan {
  notes: ScannedNote[];
  /** Files left out on purpose (too large), with the reason, for the index report. */
  skipped: { path: string; reason: string }[];
}

export type ScanRules = Pick<ProcessingConfig, 'exclude' | 'max_file_size_kb'>;

/**
 * Lists the kiln's notes (or those under `folder`, kiln-relative and already confined) honouring `[processing].exclude` and `max_file_size_kb`; `.git`,
 * `node_modules` and `.hearth` are always excluded (by the shared walker).
 */
export async function scanKiln(kiln: ConfinedRoot | string, processing: ScanRules, folder = ''): Promise<KilnScan> {
  const files = typeof kiln === 'string' ? new ConfinedRoot(kiln) : kiln;
  const paths = await listNotePaths(files, folder, { recursive: true, exclude: processing.exclude });
  return statNotes(files, paths, processing);
}

/**
 * The same rules for a few given paths (the editor re-indexing what was saved or deleted): paths
 * that are excluded, not notes, or gone are simply absent from the result; a folder (created or
 * renamed) stands for the notes under it. The paths come from a file watcher, so they are hostile
 * like a tool's: each is confined (no `..`, no absolute path) and opened like a read, so a link —
 * or a path through a linked folder — leading out of the kiln is refused, not indexed.
 */
export async function scanPaths(kiln: ConfinedRoot | string, paths: readonly string[], processing: ScanRules): Promise<KilnScan> {
  const files = typeof kiln === 'string' ? new ConfinedRoot(kiln) : kiln;
  const excluded = isExcludedBy(processing.exclude);
  const wanted = new Set<string>();
  for (const path of paths) {
    if (excluded(path)) continue;
    if (isNotePath(path)) {
      wanted.add(path);
      continue;
    }
    const info = await files.stat(path).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    for (const note of await listNotePaths(files, path, { recursive: true, exclude: processing.exclude })) wanted.add(note);
  }
  const scan = await statNotes(files, [...wanted].sort(), processing, true);
  return scan;
}

/** True for kiln-relative paths the index never holds (always-excluded folders or `exclude` globs). */
export function isExcludedBy(exclude: readonly string[]): (path: string) => boolean {
  const glob = excludeMatcher(exclude);
  return (path) => {
    const segments = path.split('/');
    if (segments.some((s) => ALWAYS_EXCLUDED.includes(s))) return true;
    // A glob may name a folder: everything under it is excluded too.
    for (let i = 1; i <= segments.length; i++) if (glob(segments.slice(0, i).join('/'))) return true;
    return false;
  };
}

/**
 * Size and time of each note. Paths asked for by name (a watcher's) are opened confined: one that is
 * a link, or leads out of the kiln through a linked folder, is left out and said so. Paths from the
 * confined walk only need lstat (a link is not a file): what a racing swap could show here is a
 * size and a time, and the note's content is read confined later anyway.
 */
async function statNotes(files: ConfinedRoot, paths: readonly string[], processing: ScanRules, named = false): Promise<KilnScan> {
  const maxBytes = processing.max_file_size_kb * 1024;
  const notes: ScannedNote[] = [];
  const skipped: KilnScan['skipped'] = [];
  const root = await files.realRoot().catch(() => files.root);
  const infos = named
    ? await mapLimit(paths, 32, (path): Promise<Stats | string | undefined> => files.stat(path).catch((error: Error) => error.message))
    : await lstatInSlices(root, paths);
  paths.forEach((path, i) => {
    const info = infos[i];
    if (typeof info === 'string') {
      if (named) skipped.push({ path, reason: `refused: ${info}` });
      return;
    }
    if (!info || !info.isFile()) return; // Deleted between listing and stat.
    if (info.size > maxBytes) {
      skipped.push({ path, reason: `larger than max_file_size_kb (${Math.ceil(info.size / 1024)} KB > ${processing.max_file_size_kb} KB)` });
      return;
    }
    notes.push({ path, size: info.size, mtimeMs: info.mtimeMs });
  });
  return { notes, skipped };
}

/** How many notes are stat'ed between two turns of the event loop (~1 ms of lstat on a local disk). */
const STAT_SLICE = 256;

/**
 * lstat of every walked path, synchronous in slices: a no-op re-index is mostly this, and one
 * promise per file through libuv's pool cost ten times the calls themselves (433 notes: ~40 ms
 * against ~3 ms); yielding between slices keeps the editor's event loop free on a large kiln.
 */
async function lstatInSlices(root: string, paths: readonly string[]): Promise<(Stats | undefined)[]> {
  const infos: (Stats | undefined)[] = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    if (i > 0 && i % STAT_SLICE === 0) await nextTurn();
    try {
      infos[i] = lstatSync(join(root, paths[i]), { throwIfNoEntry: false });
    } catch {
      // Unreadable (a permission changed mid-walk): left out like a deleted note.
      infos[i] = undefined;
    }
  }
  return infos;
}

/** Maps with at most `limit` calls in flight, results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
