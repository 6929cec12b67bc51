import type { Logger } from '../host';
import { changeKind, type ChangeActor, type ChangeRecord, type ChangeState } from './changeRecord';
import { ChangeError } from './changeErrors';
import { JournalFiles, sha256, TEMP_SUFFIX } from './journalFiles';
import { withJournalLock } from './journalLock';
import type { ChangesConfig } from '../config/schema';
import type { ConfinedRoot } from '../fs/confinedRoot';
import { confinedKilnFiles, type KilnFileAccess, type KilnWriteProtection } from './kilnFileAccess';
import { decodeEntry, encodeEntry, isOwnEntryName, MAX_ENTRY_BYTES, newEntryId, ownNameTest } from './journalEntries';
import { defaultJournalKeyFile, JournalKey } from './journalKey';
import { pruneJournal, type JournalContents } from './journalPrune';

export interface ChangeJournalOptions {
  kilnRoot: string;
  files: KilnFileAccess;
  log: Logger;
  /** `[changes].keep_days`. */
  keepDays: number;
  /** `[changes].max_mb`. */
  maxMb: number;
  now?: () => Date;
  /** The per-user key entries are signed with; default `<user data dir>/hearth/journal.key`. */
  key?: JournalKey;
}

/** One proposed file change: bytes before (null: absent) and after (null: delete). */
export interface FileChange {
  path: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
}

/**
 * Every write to the kiln made on an agent's or client's behalf, journaled so it can be listed and
 * undone, in `<kiln>/.hearth/changes/`: content-addressed `blobs/` (the bytes before and after) and
 * one signed `entries/<id>.json` per file change. The order makes a kill -9 at any moment harmless:
 * blobs and a `pending` entry first, then the note (atomically, by the caller), then the entry
 * marked `done`; opening the journal settles a `pending` entry by comparing the note with both
 * sides. A cross-process lock serialises writers (editor, CLI and gateway may run at once).
 * The journal trusts only itself (issue 30): its folders are real folders inside the kiln, and an
 * entry this user's Hearth did not write and sign is never listed, undone, or counted.
 */
export class ChangeJournal {
  private lastPrune = 0;
  private ignoredFrom = 0;
  private readonly ownNames = new Map<string, boolean>();
  private reportedIgnored = -1;
  readonly key: JournalKey;
  private readonly log: Logger;

  constructor(private readonly options: ChangeJournalOptions) {
    this.log = options.log.child('changes');
    this.key = options.key ?? new JournalKey(defaultJournalKeyFile(), this.log);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Opens the journal's folders (checked) and runs `work` under its lock. */
  private async locked<T>(work: (files: JournalFiles) => Promise<T>): Promise<T> {
    const files = await JournalFiles.open(this.options.kilnRoot, this.log);
    try {
      return await withJournalLock(files.lockPath, () => work(files), { notice: (line) => this.log.warn(line) });
    } finally {
      await files.close();
    }
  }

  private async saveEntry(files: JournalFiles, record: ChangeRecord): Promise<void> {
    await files.writeAtomic('entries', `${record.id}.json`, await encodeEntry(record, this.key));
  }

  /**
   * Journals `change`, runs `apply` (the caller's atomic write of the note), then marks the entry
   * done. When `apply` throws, the entry is marked aborted and the error is rethrown.
   */
  async record(change: FileChange, actor: ChangeActor, apply: () => Promise<void>): Promise<ChangeRecord> {
    const record = await this.locked(async (files) => {
      // The note must still be what the change was computed from: a save by the user while the
      // change waited for review (or an undo's question was open, or another writer) wins, and the
      // change is refused, never merged blindly.
      const current = await this.options.files.read(change.path);
      if ((current === null ? null : sha256(current)) !== (change.before === null ? null : sha256(change.before))) {
        throw new ChangeError('changes.conflict', `${change.path} changed while this change waited (saved by you or another program); it was not applied. Read the note again and retry.`);
      }
      const now = this.now();
      const before = change.before === null ? null : await files.putBlob(change.before);
      const after = change.after === null ? null : await files.putBlob(change.after);
      const entry: ChangeRecord = {
        id: await newEntryId(now, this.key),
        time: now.toISOString(),
        ...actor,
        path: change.path,
        kind: changeKind(change.before, change.after),
        before,
        after,
        state: 'pending',
        size: (change.before?.byteLength ?? 0) + (change.after?.byteLength ?? 0),
      };
      await this.saveEntry(files, entry);
      try {
        await apply();
      } catch (error) {
        await this.saveEntry(files, { ...entry, state: 'aborted' }).catch(() => {});
        throw error;
      }
      entry.state = 'done';
      await this.saveEntry(files, entry);
      return entry;
    });
    await this.pruneNowAndThen();
    return record;
  }

  /** Every record of this user's, oldest first; `pending` ones are settled first (under the lock). */
  async list(): Promise<ChangeRecord[]> {
    return this.locked(async (files) => {
      const { records } = await this.readAll(files);
      for (const record of records) if (record.state === 'pending') await this.settle(files, record);
      return records;
    });
  }

  async get(id: string): Promise<ChangeRecord> {
    const record = (await this.list()).find((candidate) => candidate.id === id);
    if (!record) throw new ChangeError('changes.not_found', `No journaled change with id "${id}"; run \`hearth changes\` to list them.`);
    return record;
  }

  /** The bytes a record saved for one side (null: the file did not exist on that side). */
  async content(record: ChangeRecord, side: 'before' | 'after'): Promise<Uint8Array | null> {
    const hash = record[side];
    if (hash === null) return null;
    const files = await JournalFiles.open(this.options.kilnRoot, this.log);
    const bytes = await files.readBlob(hash).finally(() => files.close());
    if (!bytes) throw new ChangeError('changes.not_found', `The journal no longer holds the ${side} content of ${record.path} (change ${record.id}; pruned or damaged).`);
    return bytes;
  }

  /** Marks records as reverted by an undo (an undo marks each file's records as soon as that file is restored). */
  async markUndone(ids: readonly string[]): Promise<void> {
    await this.locked(async (files) => {
      for (const id of ids) {
        const name = `${id}.json`;
        const bytes = await files.read('entries', name, MAX_ENTRY_BYTES);
        const record = bytes && (await isOwnEntryName(name, this.key)) ? await decodeEntry(name, bytes, this.key, this.now()) : undefined;
        if (record && typeof record !== 'string') await this.saveEntry(files, { ...record, state: 'undone' });
      }
    });
  }

  /** This user's records (name tag and signature checked) and the names of every other entry file. */
  async readAll(files: JournalFiles): Promise<JournalContents> {
    const listed = await files.names('entries').catch(() => [] as string[]);
    const names = listed.filter((name) => name.endsWith('.json')).sort();
    const records: ChangeRecord[] = [];
    const ignored: string[] = [];
    const now = this.now();
    const isOwn = await ownNameTest(this.key);
    for (const name of names) {
      let own = this.ownNames.get(name);
      if (own === undefined) this.ownNames.set(name, (own = isOwn(name)));
      if (!own) {
        ignored.push(name);
        continue;
      }
      const bytes = await files.read('entries', name, MAX_ENTRY_BYTES);
      const record = bytes ? await decodeEntry(name, bytes, this.key, now) : 'not a regular file of at most 64 KB';
      if (typeof record === 'string') {
        this.log.warn(`skipped journal entry ${name}: ${record}; it is not offered for undo`);
        ignored.push(name);
      } else records.push(record);
    }
    const foreign = ignored.length;
    if (foreign > 0 && foreign !== this.reportedIgnored) {
      this.log.warn(
        `ignored ${foreign} journal entr${foreign === 1 ? 'y' : 'ies'} in ${files.real}/entries that this user's Hearth did not write (shipped with the folder, copied from elsewhere, or written before entries were signed): they are never offered for undo and count for nothing; they are removed once [changes].keep_days old.`,
      );
    }
    this.reportedIgnored = foreign;
    return { records, ignored, temps: listed.filter((name) => TEMP_SUFFIX.test(name)) };
  }

  /** A `pending` entry is a crash between its steps: the note is old or new (atomic write), so say which. */
  private async settle(files: JournalFiles, record: ChangeRecord): Promise<void> {
    const current = await this.options.files.read(record.path).catch(() => undefined);
    if (current === undefined) return;
    const hash = current === null ? null : sha256(current);
    const state: ChangeState = hash === record.after ? 'done' : 'aborted';
    record.state = state;
    await this.saveEntry(files, record);
    this.log.info(`a change interrupted by a crash was settled: ${record.path} (${record.id}) is ${state === 'done' ? 'the new version' : 'the old version'}`);
  }

  private async pruneNowAndThen(): Promise<void> {
    if (Date.now() - this.lastPrune < 60_000) return;
    this.lastPrune = Date.now();
    await this.prune().catch((error: unknown) => this.log.warn(`pruning failed: ${(error as Error).message}`));
  }

  /**
   * `[changes].keep_days` and `max_mb` over this user's records: settled ones past the age go, then
   * the oldest until the kept bytes fit; then the blobs they alone kept, and leftovers (see
   * pruneJournal). Pending records are never pruned.
   */
  async prune(): Promise<{ removed: number }> {
    return this.locked(async (files) => {
      const contents = await this.readAll(files);
      const result = await pruneJournal(files, contents, { now: this.now(), keepDays: this.options.keepDays, maxMb: this.options.maxMb, ignoredFrom: this.ignoredFrom });
      this.ignoredFrom = result.next;
      for (const name of result.removedNames) this.ownNames.delete(name);
      return { removed: result.removed };
    });
  }
}

/** The kiln's journal as `[changes]` configures it, with confined file access to the kiln (protected paths asked through `protection`). */
export function openChangeJournal(
  kiln: ConfinedRoot | string,
  changes: ChangesConfig,
  log: Logger,
  protection?: KilnWriteProtection,
): { journal: ChangeJournal; files: KilnFileAccess } {
  const files = confinedKilnFiles(kiln, protection);
  const kilnRoot = typeof kiln === 'string' ? kiln : kiln.root;
  return { files, journal: new ChangeJournal({ kilnRoot, files, log, keepDays: changes.keep_days, maxMb: changes.max_mb }) };
}
