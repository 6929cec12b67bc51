// A database_url whose peer is not PostgreSQL (a web server, garbage bytes, a listener that never
// answers, a server that closes at once): `hearth index` and search end with a typed `index.*`
// error naming the host, never the password, and never crash the process or hang.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { pgIndex, startOpenAiEmbeddings } from '../store/pgHelpers';
import { connectTimeoutMs, createPool } from '../../../src/core/index/store/postgresConnection';

async function peer(onSocket: (socket: Socket) => void): Promise<{ port: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server, sockets };
}

const PEERS: [string, (socket: Socket) => void][] = [
  ['a web server', (s) => s.once('data', () => s.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n'))],
  ['garbage bytes', (s) => s.once('data', () => s.write(Buffer.alloc(4096, 0xff)))],
  ['a huge message length', (s) => s.once('data', () => s.write(Buffer.from([0x52, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0])))],
  ['a close at once', (s) => s.destroy()],
  ['a listener that never answers', () => {}],
];

for (const [name, behave] of PEERS) {
  test(`database_url on ${name}: a typed index error naming the host, never the password; no crash, no hang`, { timeout: 60_000 }, async () => {
    const embeddings = await startOpenAiEmbeddings();
    const { port, server, sockets } = await peer(behave);
    const kiln = makeKiln({ 'a.md': '# A\n\nSome text.\n' });
    const index = pgIndex(kiln, `postgres://hearth:Sup3rSecretPw@127.0.0.1:${port}/notes?connect_timeout=2`, embeddings.url);
    try {
      const error = await index.update().then(
        () => assert.fail('indexing against a peer that is not PostgreSQL must fail'),
        (e: unknown) => e as Error & { code?: string },
      );
      assert.match(String(error.code), /^index\.[a-z_]+$/, `${error.code}: ${error.message}`);
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}`), error.message);
      assert.doesNotMatch(`${error.message} ${JSON.stringify(error)}`, /Sup3rSecretPw/);
      assert.equal(embeddings.texts(), 0, 'nothing embedded for a database that never answered');
    } finally {
      await index.dispose();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await embeddings.stop();
      removeKiln(kiln);
    }
  });
}

test("the URL's connect_timeout bounds the connection (the JS driver ignores it on its own); odd values keep a bound", async () => {
  const pool = createPool('postgres://u:pw@127.0.0.1:1/db?connect_timeout=2&sslmode=disable', () => {});
  try {
    assert.equal((pool.options as { connectionTimeoutMillis?: number }).connectionTimeoutMillis, 2000);
  } finally {
    await pool.end();
  }
  assert.equal(connectTimeoutMs('postgres://u@h/db'), 10_000);
  assert.equal(connectTimeoutMs('postgres://u@h/db?connect_timeout=0'), 3_600_000, 'libpq: 0 waits forever; here an hour');
  assert.equal(connectTimeoutMs('postgres://u@h/db?connect_timeout=99999999'), 3_600_000);
  assert.equal(connectTimeoutMs('postgres://u@h/db?connect_timeout=abc'), 10_000);
  assert.equal(connectTimeoutMs('postgres://u@h/db?connect_timeout=0.2'), 1000);
  assert.equal(connectTimeoutMs('not a url'), 10_000);
});
