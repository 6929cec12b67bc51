import { lazyCrypto } from '../lazyCrypto';
import type { ChangeRecord } from './changeRecord';
import type { JournalKey } from './journalKey';

/**
 * How one change record is stored as `entries/<id>.json`, signed with the user's journal key.
 * The id ends with a tag (an HMAC of the rest of the id), so a name alone says whether this user's
 * Hearth wrote the entry: a folder of 50,000 shipped entries is sorted out by name, without opening
 * one. The file holds the record and a `mac` over all its fields, so an entry of ours edited
 * afterwards (a pulled commit can change one) is refused too. Everything is still checked for
 * shape — id, time and size are what order, age and prune the history.
 */
const OWN_NAME = /^(\d{8}-\d{9}-\d{6}-[0-9a-f]{8})-([0-9a-f]{16})\.json$/;
const FORMAT = 'hearth-change/1';
/** A clock set back may make a real entry look a little ahead; a year-2099 entry is refused. */
const FUTURE_SLACK_MS = 86_400_000;
const MAX_SIZE = 2 ** 42;
/** An entry file is a few hundred bytes; a large one is not ours. */
export const MAX_ENTRY_BYTES = 64 * 1024;

let sequence = 0;

function stamp(time: Date): string {
  return time.toISOString().replace(/[-:.]/g, '').replace('T', '-').replace('Z', '');
}

async function tag(key: JournalKey, prefix: string): Promise<string> {
  return (await key.mac(`id:${prefix}`)).slice(0, 16);
}

/** Sorts in the order changes were made: time, then a per-process sequence (one millisecond can hold several), then the tag. */
export async function newEntryId(now: Date, key: JournalKey): Promise<string> {
  sequence = (sequence + 1) % 1_000_000;
  const prefix = `${stamp(now)}-${String(sequence).padStart(6, '0')}-${lazyCrypto().randomBytes(4).toString('hex')}`;
  return `${prefix}-${await tag(key, prefix)}`;
}

/** Whether `name` is an entry file this user's Hearth named (a shipped or forged one is not). */
export async function isOwnEntryName(name: string, key: JournalKey): Promise<boolean> {
  return (await ownNameTest(key))(name);
}

/** The same test, synchronous once the key is loaded: 50,000 names are sorted out without a wait each. */
export async function ownNameTest(key: JournalKey): Promise<(name: string) => boolean> {
  const bytes = await key.bytes();
  const crypto = lazyCrypto();
  return (name) => {
    const match = OWN_NAME.exec(name);
    return match !== null && crypto.createHmac('sha256', bytes).update(`id:${match[1]}`).digest('hex').slice(0, 16) === match[2];
  };
}

/** Any name the journal itself gives an entry file, signed or not (what prune may remove). */
export function looksLikeEntryName(name: string): boolean {
  return /^[0-9A-Za-z-]{1,120}\.json$/.test(name);
}

function signed(record: ChangeRecord): string {
  const { id, time, turn, agent, tool, client, path, kind, before, after, state, size } = record;
  return JSON.stringify([FORMAT, id, time, turn, agent ?? null, tool, client ?? null, path, kind, before, after, state, size]);
}

export async function encodeEntry(record: ChangeRecord, key: JournalKey): Promise<string> {
  return JSON.stringify({ ...record, mac: await key.mac(signed(record)) }, null, 1);
}

const HASH = /^[0-9a-f]{64}$/;
const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

/** The record in an entry file, or why it is not one of ours. */
export async function decodeEntry(name: string, bytes: Uint8Array, key: JournalKey, now: Date): Promise<ChangeRecord | string> {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
  } catch (error) {
    return `damaged (${(error as Error).message})`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'not a change record';
  const { id, time, turn, agent, tool, client, path, kind, before, after, state, size, mac } = parsed;
  const shapeOk =
    typeof id === 'string' && `${id}.json` === name && typeof time === 'string' && typeof turn === 'string' && typeof tool === 'string' &&
    optionalString(agent) && optionalString(client) && typeof path === 'string' && path.length > 0 && path.length <= 4096 &&
    (kind === 'create' || kind === 'update' || kind === 'delete') && (state === 'pending' || state === 'done' || state === 'aborted' || state === 'undone') &&
    (before === null || (typeof before === 'string' && HASH.test(before))) && (after === null || (typeof after === 'string' && HASH.test(after))) &&
    typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 && size <= MAX_SIZE;
  if (!shapeOk) return 'not a change record';
  const actor = { ...(agent === undefined ? {} : { agent }), ...(client === undefined ? {} : { client }) };
  const record = { id, time, turn, tool, path, kind, before, after, state, size, ...actor } as ChangeRecord;
  if (!(await key.verify(signed(record), mac))) return 'its signature does not match (edited after it was written)';
  const when = Date.parse(time);
  if (!Number.isFinite(when) || stamp(new Date(when)) !== id.slice(0, 18)) return 'its time does not match its id';
  if (when > now.getTime() + FUTURE_SLACK_MS) return `its time ${time} is in the future`;
  return record;
}
