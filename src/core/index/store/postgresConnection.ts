import pg from 'pg';
import { HearthError } from '../../errors';
import { GuardedClient, MAX_MESSAGE_BYTES, type GuardOptions } from './postgresClient';

/**
 * The database cannot be reached (down, refused, unknown host, dropped, stalled): says where, never
 * the password. Only the operation in flight fails; the next one connects again (the editor retries
 * on a timer, the gateway on its next call).
 */
export class DatabaseUnreachableError extends HearthError {
  constructor(where: string, cause: unknown) {
    super('index.unreachable', `The index database at ${where} is unreachable (${reason(cause)}); retrying: search and indexing resume when it is back.`, { cause });
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
  // pg reports a socket closed under it, its own connect timeout and query_timeout (a server that
  // stalls after authenticating) without a code.
  return e instanceof Error && !(e as { code?: string }).code && /Connection terminated|timeout expired|Client has encountered a connection error|Query read timeout/i.test(e.message);
}

/**
 * Ends a failed transaction. A connection that died or stalled is not asked (a ROLLBACK would wait
 * out another query timeout): the pool drops it, and the server rolls back when it goes.
 */
export async function rollback(client: pg.PoolClient, error: unknown): Promise<void> {
  if (isUnreachable(error)) return;
  await client.query('ROLLBACK').catch(() => {});
}

/** Wraps a driver error in the typed error users see; Hearth's own errors pass through. */
export function databaseError(where: string, error: unknown): Error {
  if (error instanceof HearthError) return error;
  return isUnreachable(error) ? new DatabaseUnreachableError(where, error) : new DatabaseError(where, error);
}

/** Runs `work` on a pooled connection; driver errors become the typed errors above. */
export async function withClient<T>(pool: pg.Pool, where: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw databaseError(where, error);
  }
  let broken: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    broken = error instanceof Error ? error : undefined;
    throw databaseError(where, error);
  } finally {
    // A connection that failed mid-query is not reused.
    client.release(broken);
  }
}

/** Runs `work` in one transaction on a pooled connection (withClient). */
export function inTransaction<T>(pool: pg.Pool, where: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, where, async (client) => {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await rollback(client, error);
      throw error;
    }
  });
}

/**
 * Bounds on every connection, in milliseconds; the URL's query overrides each
 * (`?statement_timeout=300000`). The server cancels a statement, a lock wait, or a transaction left
 * open; query_timeout, a little longer, is the client's own bound on a server that stops answering
 * (the server's clearer error comes first when it still can). Migrations lift them (postgresSchema).
 */
export const SESSION_TIMEOUTS = {
  statement_timeout: 60_000,
  lock_timeout: 30_000,
  idle_in_transaction_session_timeout: 60_000,
  query_timeout: 75_000,
} as const;

type ServerTimeout = Exclude<keyof typeof SESSION_TIMEOUTS, 'query_timeout'>;
const SERVER_TIMEOUTS: readonly ServerTimeout[] = ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'];

/**
 * The `SET`s each new connection runs first. Sent as statements, not startup parameters: PgBouncer
 * and other poolers refuse unknown startup parameters, and PGlite ignores them.
 */
export function sessionSettings(url: string): string {
  let query: URLSearchParams;
  try {
    query = new URL(url).searchParams;
  } catch {
    query = new URLSearchParams();
  }
  return SERVER_TIMEOUTS.map((name) => {
    const given = Number(query.get(name) ?? NaN);
    const ms = Number.isFinite(given) && given >= 0 ? Math.floor(given) : SESSION_TIMEOUTS[name];
    return `SET ${name} = ${ms}`;
  }).join('; ');
}

/**
 * A pool on the URL (its query carries pool and TLS settings: `sslmode`, `connect_timeout`, …).
 * A pooled connection that dies, idle or in use (the server restarted, the network dropped), must
 * not crash the host: the query in flight fails, the connection is dropped, and the next query
 * connects again. TCP keep-alive finds a connection that died without a word.
 */
export function createPool(url: string, onIdleError: (error: Error) => void): pg.Pool {
  const guard: GuardOptions = { hearthWhere: describeDatabase(url), hearthMaxMessageBytes: MAX_MESSAGE_BYTES };
  const config: pg.PoolConfig & GuardOptions = {
    ...guard,
    query_timeout: SESSION_TIMEOUTS.query_timeout,
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: connectTimeoutMs(url),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    Client: GuardedClient as unknown as typeof pg.Client,
  };
  const settings = sessionSettings(url);
  // The pool awaits it before handing a new connection out; a failure fails that connect.
  config.onConnect = async (client) => {
    await client.query(settings);
  };
  const pool = new pg.Pool(config);
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
  // pg's own query_timeout message says nothing of what happened.
  const text = e?.message === 'Query read timeout' ? 'no answer within the query timeout' : (e?.message ?? String(cause));
  // Driver messages name the user or database at most; a URL in them would carry userinfo.
  const cleaned = text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s@/]*@/gi, (m) => m.replace(/\/\/[^@]*@/, '//'));
  return e?.code && !cleaned.includes(e.code) ? `${e.code}: ${cleaned}` : cleaned || 'no answer';
}
