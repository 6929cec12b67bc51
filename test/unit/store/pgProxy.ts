// A loopback TCP proxy in front of a pglite-server, for what a network and a server can do to the
// team store: drop every connection when a client sends a given statement, stop passing the
// server's answers (a stall after authenticating), or answer a statement with a message that
// announces a gigabyte.
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type ProxyMode =
  | { kind: 'pass' }
  /** Destroys both sides of every connection once a client sends a statement matching `when`. */
  | { kind: 'drop'; when: RegExp }
  /** Refuses new connections at once (the database is down). */
  | { kind: 'down' }
  /** Once a client sends a statement matching `when`, that connection's server answers are held back. */
  | { kind: 'stall'; when: RegExp }
  /** Answers a statement matching `when` with a DataRow header announcing `announce` bytes, then filler. */
  | { kind: 'huge'; when: RegExp; announce: number; sendAtMost: number };

export interface PgProxy {
  url: string;
  mode: ProxyMode;
  /** Filler bytes the huge answer got into the socket before the client closed it. */
  hugeSent: number;
  stop(): Promise<void>;
}

/** A proxy on 127.0.0.1 to `target` (a pglite-server port); the URL keeps `query`'s parameters. */
export async function startPgProxy(targetPort: number, query = ''): Promise<PgProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const proxy: PgProxy = { url: '', mode: { kind: 'pass' }, hugeSent: 0, stop: async () => {} };
  const server: Server = createServer((client) => {
    client.on('error', () => {});
    if (proxy.mode.kind === 'down') {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    upstream.on('error', () => {});
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    let stalled = false;
    let detached = false;
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close);
    upstream.on('close', () => {
      if (!detached) close();
    });
    upstream.on('data', (data) => {
      if (!stalled) client.write(data);
    });
    client.on('data', (data) => {
      const mode = proxy.mode;
      const text = data.toString('latin1');
      if (mode.kind === 'drop' && mode.when.test(text)) {
        for (const [a, b] of [...pairs]) {
          a.destroy();
          b.destroy();
        }
        return;
      }
      if (mode.kind === 'stall' && mode.when.test(text)) stalled = true;
      if (mode.kind === 'huge' && mode.when.test(text)) {
        detached = true;
        upstream.destroy();
        void sendHuge(client, mode.announce, mode.sendAtMost, (n) => (proxy.hugeSent += n));
        return;
      }
      upstream.write(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.url = `postgres://postgres@127.0.0.1:${port}/postgres${query ? `?${query}` : ''}`;
  proxy.stop = async () => {
    for (const [a, b] of pairs) {
      a.destroy();
      b.destroy();
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}

/** 'D' and a length, then zeros as fast as the client takes them, up to `atMost` bytes. */
async function sendHuge(socket: Socket, announce: number, atMost: number, sent: (n: number) => void): Promise<void> {
  const header = Buffer.alloc(5);
  header[0] = 0x44;
  header.writeUInt32BE(announce, 1);
  socket.write(header);
  const filler = Buffer.alloc(1 << 16);
  let total = 0;
  while (total < atMost && !socket.destroyed) {
    total += filler.length;
    sent(filler.length);
    if (!socket.write(filler)) {
      const closed = await new Promise<boolean>((resolve) => {
        socket.once('drain', () => resolve(false));
        socket.once('close', () => resolve(true));
      });
      if (closed) return;
    }
  }
}
