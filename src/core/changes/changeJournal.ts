import { randomBytes } from 'node:crypto';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../host';
import { changeKind, type ChangeActor, type ChangeRecord, type ChangeState } from './changeRecord';
import { ChangeError } from './changeErrors';
import { ensureJournalDir, putBlob, readBlob, sha256, writeAtomic } from './journalFiles';
import { withJournalLock } from './journalLock';
import type { ChangesConfig } from '../config/schema';
import type { ConfinedRoot } from '../fs/confinedRoot';
import { confinedKilnFiles, type KilnFileAccess } from './kilnFileAccess';

export interface ChangeJournalOptions {
  kilnRoot: string;
  files: KilnFileAccess;
  log: Logger;
  /** `[changes].keep_days`. */
  keepDays: number;
  /** `[changes].max_mb`. */
  maxMb: number;
  now?: () => Date;
}

/** One proposed file change: bytes before (null: absent) and after (null: delete). */
export interface FileChange {
  path: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
}

const ENTRY = /^[0-9A-Za-z-]+\.json$/;

let sequence = 0;

/** Sorts in the order changes were made: time, then a per-process sequence (one millisecond can hold several). */
function newId(now: Date): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${now.toISOString().replace(/[-:.]/g, '').replace('T', '-').replace('Z', '')}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
}

function isRecord(value: unknown): value is ChangeRecord {
  const record = value as ChangeRecord;
  return (
    typeof record === 'object' && record !== null && typeof record.id === 'string' && typeof record.path === 'string' && typeof record.turn === 'string' &&
    typeof record.tool === 'string' && typeof record.time === 'string' && ['create', 'update', 'delete'].includes(record.kind) &&
    ['pending', 'done', 'aborted', 'undone'].includes(record.state)
  );
}

/**
 * Every write to the kiln made on an agent's or client's behalf, journaled so it can be listed and
 * undone, in `<kiln>/.hearth/changes/`: content-addressed `blobs/` (the bytes before and after) and
 * one `entries/<id>.json` per file change. The order makes a kill -9 at any moment harmless: blobs
 * and a `pending` entry first, then the note (atomically, by the caller), then the entry marked
 * `done`; opening the journal settles a `pending` entry by comparing the note with both sides.
 * A cross-process lock serialises writers (editor, CLI and gateway may run at once).
 */
export class ChangeJournal {
  private dir: string | undefined;
  private lastPrune = 0;

  private readonly log: Logger;

  constructor(private readonly options: ChangeJournalOptions) {
    this.log = options.log.child('changes');
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private async directory(): Promise<string> {
    this.dir ??= await ensureJournalDir(this.options.kilnRoot);
    return this.dir;
  }

  private locked<T>(dir: string, work: () => Promise<T>): Promise<T> {
    return withJournalLock(join(dir, 'lock'), work);
  }

  private async saveEntry(dir: string, record: ChangeRecord): Promise<void> {
    await writeAtomic(join(dir, 'entries', `${record.id}.json`), JSON.stringify(record, null, 1));
  }

  /**
   * Journals `change`, runs `apply` (the caller's atomic write of the note), then marks the entry
   * done. When `apply` throws, the entry is marked aborted and the error is rethrown.
   */
  async record(change: FileChange, actor: ChangeActor, apply: () => Promise<void>): Promise<ChangeRecord> {
    const dir = await this.directory();
    const record = await this.locked(dir, async () => {
      // The note must still be what the change was computed from: a save by the user while the
      // change waited for review (or another writer) wins, and the change is refused, never merged blindly.
      const current = await this.options.files.read(change.path);
      if ((current === null ? null : sha256(current)) !== (change.before === null ? null : sha256(change.before))) {
        throw new ChangeError('changes.conflict', `${change.path} changed while this change waited (saved by you or another program); it was not applied. Read the note again and retry.`);
      }
      const now = this.now();
      const before = change.before === null ? null : await putBlob(dir, change.before);
      const after = change.after === null ? null : await putBlob(dir, change.after);
      const entry: ChangeRecord = {
        id: newId(now),
        time: now.toISOString(),
        ...actor,
        path: change.path,
        kind: changeKind(change.before, change.after),
        before,
        after,
        state: 'pending',
        size: (change.before?.byteLength ?? 0) + (change.after?.byteLength ?? 0),
      };
      await this.saveEntry(dir, entry);
      try {
        await apply();
      } catch (error) {
        await this.saveEntry(dir, { ...entry, state: 'aborted' }).catch(() => {});
        throw error;
      }
      entry.state = 'done';
      await this.saveEntry(dir, entry);
      return entry;
    });
    await this.pruneNowAndThen();
    return record;
  }

  /** Every readable record, oldest first; `pending` ones are settled first (under the lock). */
  async list(): Promise<ChangeRecord[]> {
    const dir = await this.directory();
    return this.locked(dir, async () => {
      const records = await this.readAll(dir);
      for (const record of records) if (record.state === 'pending') await this.settle(dir, record);
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
    const bytes = await readBlob(await this.directory(), hash);
    if (!bytes) throw new ChangeError('changes.not_found', `The journal no longer holds the ${side} content of ${record.path} (change ${record.id}; pruned or damaged).`);
    return bytes;
  }

  /** Marks records as reverted by an undo. */
  async markUndone(ids: readonly string[]): Promise<void> {
    const dir = await this.directory();
    await this.locked(dir, async () => {
      for (const record of await this.readAll(dir)) if (ids.includes(record.id)) await this.saveEntry(dir, { ...record, state: 'undone' });
    });
  }

  private async readAll(dir: string): Promise<ChangeRecord[]> {
    const names = (await readdir(join(dir, 'entries')).catch(() => [] as string[])).filter((name) => ENTRY.test(name)).sort();
    const records: ChangeRecord[] = [];
    for (const name of names) {
      try {
        const parsed = JSON.parse(await readFile(join(dir, 'entries', name), 'utf8')) as unknown;
        if (isRecord(parsed) && `${parsed.id}.json` === name) records.push(parsed);
        else this.log.warn(`skipped ${name}: not a change record`);
      } catch (error) {
        this.log.warn(`skipped damaged journal entry ${name}: ${(error as Error).message}`);
      }
    }
    return records;
  }

  /** A `pending` entry is a crash between its steps: the note is old or new (atomic write), so say which. */
  private async settle(dir: string, record: ChangeRecord): Promise<void> {
    const current = await this.options.files.read(record.path).catch(() => undefined);
    if (current === undefined) return;
    const hash = current === null ? null : sha256(current);
    const state: ChangeState = hash === record.after ? 'done' : 'aborted';
    record.state = state;
    await this.saveEntry(dir, record);
    this.log.info(`a change interrupted by a crash was settled: ${record.path} (${record.id}) is ${state === 'done' ? 'the new version' : 'the old version'}`);
  }

  private async pruneNowAndThen(): Promise<void> {
    if (Date.now() - this.lastPrune < 60_000) return;
    this.lastPrune = Date.now();
    await this.prune().catch((error: unknown) => this.log.warn(`pruning failed: ${(error as Error).message}`));
  }

  /**
   * `[changes].keep_days` and `max_mb`: settled records past the age go, then the oldest until the
   * kept bytes fit; blobs no record points to are removed. Pending records are never pruned.
   */
  async prune(): Promise<{ removed: number }> {
    const dir = await this.directory();
    return this.locked(dir, async () => {
      const records = await this.readAll(dir);
      const cutoff = this.now().getTime() - this.options.keepDays * 86_400_000;
      const budget = this.options.maxMb * 1024 * 1024;
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
      for (const record of removed) await unlink(join(dir, 'entries', `${record.id}.json`)).catch(() => {});
      const referenced = new Set([...keep].flatMap((record) => [record.before, record.after]).filter((hash): hash is string => hash !== null));
      for (const blob of await readdir(join(dir, 'blobs')).catch(() => [] as string[])) {
        // Blobs are only written under this lock, so an unreferenced one (or a crash's temp file) is garbage.
        if (!referenced.has(blob)) await unlink(join(dir, 'blobs', blob)).catch(() => {});
      }
      return { removed: removed.length };
    });
  }
}

/** The kiln's journal as `[changes]` configures it, with confined file access to the kiln. */
export function openChangeJournal(kiln: ConfinedRoot | string, changes: ChangesConfig, log: Logger): { journal: ChangeJournal; files: KilnFileAccess } {
  const files = confinedKilnFiles(kiln);
  const kilnRoot = typeof kiln === 'string' ? kiln : kiln.root;
  return { files, journal: new ChangeJournal({ kilnRoot, files, log, keepDays: changes.keep_days, maxMb: changes.max_mb }) };
}
