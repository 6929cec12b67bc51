import type { ChangeRecord } from './changeRecord';
import { LEFTOVER_TEMP_MS } from '../fs/leftoverTemps';
import { looksLikeEntryName } from './journalEntries';
import { TEMP_SUFFIX, type JournalFiles } from './journalFiles';

/** Other entries removed per prune at most: a folder shipped with 50,000 of them must not stall one edit. */
const IGNORED_PER_PRUNE = 2_000;
const BLOB = /^[0-9a-f]{64}$/;

/** What reading the entries found: this user's records (oldest first) and the names of the rest. */
export interface JournalContents {
  records: ChangeRecord[];
  /** Entry files that are not this user's, or no longer what was signed: never read as records. */
  ignored: string[];
  /** Names in `entries/` of a journal temp file's shape (a killed writer's leftovers, or a live one's). */
  temps: string[];
}

export interface PruneLimits {
  now: Date;
  keepDays: number;
  maxMb: number;
  /** Where this prune's batch of other entries starts (the last prune's `next`): each run looks at the next batch. */
  ignoredFrom?: number;
}

/**
 * Prune under the journal's lock. It removes only names the journal gives its own files, and
 * only when they `lstat` as regular files (never a link, never a folder):
 * - this user's settled records past `keep_days`, then the oldest until `max_mb` fits;
 * - blobs only those records kept, and blobs nothing refers to once `keep_days` old;
 * - entry files that are not this user's, once their *file* is `keep_days` old (their own `time`
 *   and `size` are never believed: a shipped entry dated 2099 ages like any other file), a batch
 *   per prune;
 * - temp files a killed writer left, once LEFTOVER_TEMP_MS old.
 */
export async function pruneJournal(files: JournalFiles, contents: JournalContents, limits: PruneLimits): Promise<{ removed: number; removedNames: string[]; next: number }> {
  const { records, ignored } = contents;
  const cutoff = limits.now.getTime() - limits.keepDays * 86_400_000;
  // Files age by the real clock (their mtime), records by the journal's.
  const fileCutoff = Date.now() - limits.keepDays * 86_400_000;
  const tempCutoff = Date.now() - LEFTOVER_TEMP_MS;
  const budget = limits.maxMb * 1024 * 1024;
  const keep = new Set(records);
  for (const record of records) if (record.state !== 'pending' && Date.parse(record.time) < cutoff) keep.delete(record);
  let total = [...keep].reduce((sum, record) => sum + record.size, 0);
  for (const record of records) {
    if (total <= budget) break;
    if (!keep.has(record) || record.state === 'pending') continue;
    keep.delete(record);
    total -= record.size;
  }
  const removed = records.filter((record) => !keep.has(record));
  const removedNames: string[] = [];
  for (const record of removed) if (await files.removeFile('entries', `${record.id}.json`)) removedNames.push(`${record.id}.json`);
  const others = ignored.filter(looksLikeEntryName);
  const from = (limits.ignoredFrom ?? 0) < others.length ? (limits.ignoredFrom ?? 0) : 0;
  const batch = others.slice(from, from + IGNORED_PER_PRUNE);
  let kept = 0;
  // A few at a time: one lstat after another would make a 2,000-name batch the slowest part of an edit.
  for (let at = 0; at < batch.length; at += 32) {
    const names = batch.slice(at, at + 32);
    const gone = await Promise.all(names.map((name) => files.removeFile('entries', name, fileCutoff)));
    names.forEach((name, i) => (gone[i] ? removedNames.push(name) : kept++));
  }
  const hashes = (list: Iterable<ChangeRecord>) => new Set([...list].flatMap((record) => [record.before, record.after]).filter((hash): hash is string => hash !== null));
  const referenced = hashes(keep);
  const freed = hashes(removed);
  for (const name of await files.names('blobs').catch(() => [] as string[])) {
    if (BLOB.test(name)) {
      if (!referenced.has(name)) await files.removeFile('blobs', name, freed.has(name) ? undefined : fileCutoff);
    } else if (TEMP_SUFFIX.test(name) && BLOB.test(name.slice(0, 64))) await files.removeFile('blobs', name, tempCutoff);
  }
  for (const name of contents.temps) {
    if (looksLikeEntryName(name.replace(TEMP_SUFFIX, ''))) await files.removeFile('entries', name, tempCutoff);
  }
  // The names removed drop out of the list, so the next batch starts after the ones kept.
  return { removed: removed.length, removedNames, next: from + kept };
}
