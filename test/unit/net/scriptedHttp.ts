// Test support for the HTTP client: a loopback HTTP server whose answer is scripted per path (it
// records what arrived and when each connection closed), and a raw TCP server that answers bytes
// an HTTP server library would refuse to send (odd status lines, upgrades).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface ScriptedServer {
  url: string;
  received: Received[];
  /** Resolves when every connection opened so far has closed (the client let go of its socket). */
  allClosed(): Promise<void>;
  stop(): Promise<void>;
}

type Route = (req: Received, res: ServerResponse) => void;

export async function startScriptedServer(routes: Record<string, Route>): Promise<ScriptedServer> {
  const received: Received[] = [];
  const open = new Set<Socket>();
  const closed: Promise<void>[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
    received.push(seen);
    const route = routes[new URL(seen.path, 'http://x').pathname];
    if (route) route(seen, res);
    else res.writeHead(404).end();
  });
  server.on('connection', (socket) => {
    open.add(socket);
    closed.push(new Promise((resolve) => socket.once('close', () => (open.delete(socket), resolve()))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    allClosed: async () => void (await Promise.all(closed)),
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Answers every connection's first bytes with `answer` (latin1) and closes; `url` + any path. */
export async function startRawServer(answer: string, options: { keepOpen?: boolean } = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => (options.keepOpen ? socket.write(Buffer.from(answer, 'latin1')) : socket.end(Buffer.from(answer, 'latin1'))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** `promise`, or a failure naming `what` when it has not settled after `ms`: a guard against a hang, not a timing. */
export async function settlesWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms (a hang)`)), ms)));
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}
