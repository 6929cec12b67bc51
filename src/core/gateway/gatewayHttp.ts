import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../errors';
import { createGatewayServer, type GatewayServerOptions } from './gatewayServer';
import { SessionEventStore, SSE_RETRY_MS } from './sessionEventStore';
import { isProtectedResourcePath, serveProtectedResource, unauthorized } from './protectedResource';
import type { Disposable } from '../lifecycle/disposable';

export interface GatewayHttpOptions extends GatewayServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** A fixed token (tests); a random 256-bit one otherwise. */
  token?: string;
  /** A session unused this long is closed (default 30 min). */
  sessionIdleMs?: number;
  /** At most this many sessions; a new one closes the least recently used (default 64). */
  maxSessions?: number;
  /** The clock for idle times (tests). */
  now?: () => number;
}

export interface GatewayHttpHandle extends Disposable {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  port: number;
  /** Sent by clients as `Authorization: Bearer <token>`. */
  token: string;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /** Closes the sessions idle past `sessionIdleMs` (also done every minute); returns how many. */
  expireIdle(): Promise<number>;
  /** Closes every session and the listening socket. */
  dispose(): Promise<void>;
}

export const MAX_BODY_BYTES = 8 * 1024 * 1024;
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const MAX_SESSIONS = 64;
const SWEEP_MS = 60 * 1000;

class BodyTooLargeError extends Error {}

interface Session extends Disposable {
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

/**
 * Serves the gateway over streamable HTTP on 127.0.0.1 only. Every request needs the bearer token;
 * Host and Origin must be loopback, which stops a web page in the user's browser from reaching the
 * gateway through DNS rebinding even though it listens on a local port.
 */
export async function serveGatewayHttp(options: GatewayHttpOptions): Promise<GatewayHttpHandle> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const sessions = new Map<string, Session>();
  const now = options.now ?? Date.now;
  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  const log = options.log.child('gateway');
  let port = 0;
  const expireIdle = async (): Promise<number> => {
    const idle = [...sessions.entries()].filter(([, session]) => now() - session.lastUsed > idleMs);
    for (const [id] of idle) sessions.delete(id);
    await Promise.allSettled(idle.map(([, session]) => session.transport.close()));
    if (idle.length) log.info(`closed ${idle.length} HTTP session(s) idle for more than ${Math.round(idleMs / 1000)} s`);
    return idle.length;
  };
  /** Room for one more session: the least recently used ones go first. */
  const makeRoom = async (): Promise<void> => {
    while (sessions.size >= maxSessions) {
      const [id, oldest] = [...sessions.entries()].reduce((a, b) => (b[1].lastUsed < a[1].lastUsed ? b : a));
      sessions.delete(id);
      log.warn(`${maxSessions} HTTP sessions open: closed the least recently used one`);
      await oldest.transport.close().catch(() => {});
    }
  };

  const authorized = (req: IncomingMessage): boolean => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const loopbackHost = (req: IncomingMessage): boolean => {
    const host = req.headers.host ?? '';
    return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
  };
  const loopbackOrigin = (req: IncomingMessage): boolean => {
    const origin = req.headers.origin;
    return origin === undefined || origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
  };
  const fail = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!loopbackHost(req) || !loopbackOrigin(req)) return fail(res, 403, 'Forbidden: Host and Origin must be loopback');
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    // Public by design (RFC 9728): it only says that no authorization server issues tokens here.
    if (isProtectedResourcePath(path)) return serveProtectedResource(res, port);
    if (!authorized(req)) return unauthorized(res, port);
    if (path !== '/mcp') return fail(res, 404, 'Not found: the endpoint is /mcp');
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) existing.lastUsed = now();
    if (req.method !== 'POST') {
      if (!existing) return fail(res, 400, 'Bad request: unknown or missing session');
      return existing.transport.handleRequest(req, res);
    }
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      log.warn(`refused an HTTP request body over ${MAX_BODY_BYTES} bytes`);
      res.setHeader('connection', 'close');
      return fail(res, 413, `Payload too large: the gateway accepts request bodies up to ${MAX_BODY_BYTES / (1024 * 1024)} MB`);
    }
    if (existing) return existing.transport.handleRequest(req, res, body);
    if (sessionId !== undefined) return fail(res, 404, 'Session not found');
    if (!isInitializeRequest(body)) return fail(res, 400, 'Bad request: the first request must be initialize');
    await makeRoom();
    const session = createGatewayServer(options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // Resumable streams: a priming event with an id and `retry`, and replay after Last-Event-ID.
      eventStore: new SessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, dispose: session.dispose, lastUsed: now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId && sessions.get(transport.sessionId)?.transport === transport) sessions.delete(transport.sessionId);
      session.dispose();
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log.warn(`HTTP request failed: ${describeError(error)}`);
      if (!res.headersSent) fail(res, error instanceof SyntaxError ? 400 : 500, describeError(error));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const sweeper = setInterval(() => void expireIdle(), Math.min(SWEEP_MS, idleMs));
  sweeper.unref();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    token,
    get sessionCount() {
      return sessions.size;
    },
    expireIdle,
    async dispose() {
      clearInterval(sweeper);
      await Promise.allSettled([...sessions.values()].map((session) => session.transport.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
