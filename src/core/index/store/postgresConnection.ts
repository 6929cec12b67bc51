import pg from 'pg';
import { HearthError } from '../../errors';

/** The database cannot be reached (down, refused, unknown host, dropped): says where, never the password. */
export class DatabaseUnreachableError extends HearthError {
  constructor(where: string, cause: unknown) {
    super('index.unreachable', `The index database at ${where} is unreachable (${reason(cause)}). Search and indexing resume when it is back.`, { cause });
  }
}

/** The database answered with an error Hearth cannot work around (privileges, no pgvector, a bad database name). */
export class DatabaseError extends HearthError {
  constructor(where: string, cause: unknown) {
    super('index.database', `The index database at ${where} refused a request: ${reason(cause)}.`, { cause });
  }
}

/** `host:port/database` of a connection URL: what error messages and `hearth index --json` show. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname.length > 1 ? parsed.pathname : '/postgres'}`;
  } catch {
    return 'the configured database';
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** Server shutting down / connection failures (SQLSTATE class 08, 57P01–57P03). */
const SERVER_GONE = /^(08|57P0[1-3])/;

export function isUnreachable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (e.code && (NETWORK_CODES.has(e.code) || SERVER_GONE.test(e.code))) return true;
  // pg reports a socket closed under it, and its own connect timeout, without a code.
  return e instanceof Error && !(e as { code?: string }).code && /Connection terminated|timeout expired|Client has encountered a connection error/i.test(e.message);
}

/** Wraps a driver error in the typed error users see; Hearth's own errors pass through. */
export function databaseError(where: string, error: unknown): Error {
  if (error instanceof HearthError) return error;
  return isUnreachable(error) ? new DatabaseUnreachableError(where, error) : new DatabaseError(where, error);
}

/**
 * A pool on the URL (its query carries pool and TLS settings: `sslmode`, `connect_timeout`, …).
 * A pooled connection that dies while idle (the server restarted) must not crash the host: it is
 * dropped, and the next query connects again.
 */
export function createPool(url: string, onIdleError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: connectTimeoutMs(url), idleTimeoutMillis: 30_000 });
  pool.on('error', onIdleError);
  return pool;
}

/**
 * libpq's `connect_timeout` (seconds) from the URL's query, else 10 s. The pure-JS driver ignores
 * that parameter (only pg-native reads it), so it becomes the pool's connection timeout here; it
 * bounds a peer that accepts and never answers, or answers what is not PostgreSQL.
 */
export function connectTimeoutMs(url: string): number {
  let value: string | null;
  try {
    value = new URL(url).searchParams.get('connect_timeout');
  } catch {
    return 10_000;
  }
  const seconds = value === null ? NaN : Number(value);
  // libpq: 0 or negative waits forever; Hearth keeps a bound (an hour) so nothing hangs for good.
  if (!Number.isFinite(seconds)) return 10_000;
  return seconds <= 0 ? 3_600_000 : Math.min(Math.max(seconds, 1), 3_600) * 1000;
}

function reason(cause: unknown): string {
  const e = cause as { code?: string; message?: string } | undefined;
  const text = e?.message ?? String(cause);
  // Driver messages name the user or database at most; a URL in them would carry userinfo.
  const cleaned = text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s@/]*@/gi, (m) => m.replace(/\/\/[^@]*@/, '//'));
  return e?.code && !cleaned.includes(e.code) ? `${e.code}: ${cleaned}` : cleaned || 'no answer';
}
