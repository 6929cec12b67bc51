// nodeHttpFetch against servers that misbehave: a stall mid-body, a socket closed mid-body, a
// corrupt or enormous compressed body, an upgrade nobody asked for, statuses and reasons a Response
// refuses. Each ends in a fetch-shaped rejection (or the abort reason), promptly, and lets go of
// its socket — a process that runs it can still exit by itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { nodeHttpFetch, nodeHttpFetchWithIdleTimeout } from '../../../src/core/net/nodeHttpFetch';
import { settlesWithin, startRawServer, startScriptedServer } from './scriptedHttp';

const BODY = Buffer.from(JSON.stringify({ data: Array.from({ length: 2000 }, (_, i) => ({ index: i, embedding: [i / 7, -i / 3] })) }));
const GZIPPED = gzipSync(BODY);

/** Routes that send the first half of the answer, then stall (`sent` resolves when the half is out) or close. */
function halfRoutes() {
  let sent!: () => void;
  const halfSent = new Promise<void>((resolve) => (sent = resolve));
  const half = (res: ServerResponse, wire: Buffer, headers: Record<string, string>, then: 'stall' | 'close') => {
    res.writeHead(200, { 'content-length': String(wire.length), ...headers });
    res.write(wire.subarray(0, wire.length >> 1), () => {
      sent();
      if (then === 'close') res.socket?.destroy();
    });
  };
  return {
    halfSent,
    routes: {
      '/never': () => sent(),
      '/stall': (_: unknown, res: ServerResponse) => half(res, BODY, { 'content-type': 'application/json' }, 'stall'),
      '/stall-gzip': (_: unknown, res: ServerResponse) => half(res, GZIPPED, { 'content-encoding': 'gzip' }, 'stall'),
      '/close': (_: unknown, res: ServerResponse) => half(res, BODY, {}, 'close'),
      '/close-gzip': (_: unknown, res: ServerResponse) => half(res, GZIPPED, { 'content-encoding': 'gzip' }, 'close'),
    },
  };
}

for (const path of ['/never', '/stall', '/stall-gzip']) {
  test(`an abort while the server stalls (${path}) rejects with the abort reason and closes the connection`, async () => {
    const { halfSent, routes } = halfRoutes();
    const server = await startScriptedServer(routes);
    try {
      const controller = new AbortController();
      const reason = new Error('the user pressed Escape');
      const pending = nodeHttpFetch(`${server.url}${path}`, { signal: controller.signal });
      pending.catch(() => undefined);
      await halfSent;
      controller.abort(reason);
      await assert.rejects(settlesWithin(pending, 20_000, 'the aborted fetch'), (error) => error === reason);
      await settlesWithin(server.allClosed(), 20_000, 'the client closing its socket');
    } finally {
      await server.stop();
    }
  });
}

test('a process aborting a gzipped fetch mid-body exits by itself (no socket or stream left referenced)', { timeout: 120_000 }, async () => {
  const { halfSent, routes } = halfRoutes();
  const server = await startScriptedServer(routes);
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve('test/unit/net/fixtures/fetchUntilAborted.ts'), `${server.url}/stall-gzip`], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    await halfSent;
    child.stdin.write('abort\n');
    // The server still holds its side open: only the child letting go of everything lets it exit.
    const code = await settlesWithin(exited, 60_000, 'the child process exiting').finally(() => child.kill());
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out), { rejected: 'stopped by the test' });
  } finally {
    await server.stop();
  }
});

for (const path of ['/close', '/close-gzip']) {
  test(`a server closing the socket mid-body (${path}) gives a TypeError with a cause, not a truncated answer`, async () => {
    const { routes } = halfRoutes();
    const server = await startScriptedServer(routes);
    try {
      await assert.rejects(settlesWithin(nodeHttpFetch(`${server.url}${path}`), 20_000, 'the fetch'), (error: unknown) => {
        assert.ok(error instanceof TypeError, String(error));
        assert.ok(error.cause instanceof Error, 'the socket error is the cause');
        return true;
      });
    } finally {
      await server.stop();
    }
  });
}

test('a corrupt gzip body from a server that keeps the connection open rejects and lets go of the socket', async () => {
  const server = await startScriptedServer({
    '/corrupt': (_, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(GZIPPED.length) });
      res.write(Buffer.concat([GZIPPED.subarray(0, 10), Buffer.alloc(200, 0x41)]));
    },
  });
  try {
    await assert.rejects(settlesWithin(nodeHttpFetch(`${server.url}/corrupt`), 20_000, 'the fetch'), (error: unknown) => error instanceof TypeError && (error.cause as NodeJS.ErrnoException).code === 'Z_DATA_ERROR');
    await settlesWithin(server.allClosed(), 20_000, 'the client closing its socket');
  } finally {
    await server.stop();
  }
});

test('a compressed answer that inflates past the size limit (a gzip bomb) is refused, not buffered', async () => {
  // 96 MiB of zeros is ~100 KB on the wire.
  const bomb = gzipSync(Buffer.alloc(96 * 1024 * 1024));
  const server = await startScriptedServer({ '/bomb': (_, res) => res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(bomb) });
  try {
    await assert.rejects(nodeHttpFetch(`${server.url}/bomb`), (error: unknown) => {
      assert.ok(error instanceof TypeError, String(error));
      assert.match(String((error.cause as Error).message), /larger than \d+ MiB/);
      return true;
    });
  } finally {
    await server.stop();
  }
});

const ODD_ANSWERS: Record<string, string> = {
  'a 101 upgrade nobody asked for': 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n',
  'status 999': 'HTTP/1.1 999 Weird\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}',
  'status 600': 'HTTP/1.1 600 Weird\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}',
  'not HTTP at all': 'SSH-2.0-OpenSSH_9.2\r\n\r\n',
};
for (const [what, answer] of Object.entries(ODD_ANSWERS)) {
  test(`${what}: a TypeError, promptly (the connection stays open: no hang waiting for it)`, async () => {
    const server = await startRawServer(answer, { keepOpen: true });
    try {
      await assert.rejects(settlesWithin(nodeHttpFetch(`${server.url}/v1/embeddings`, { method: 'POST', body: '{}' }), 20_000, 'the fetch'), TypeError);
    } finally {
      await server.stop();
    }
  });
}

test('a reason phrase the Response constructor refuses (a control character) still gives the answer, without the reason', async () => {
  const server = await startRawServer('HTTP/1.1 200 O\x01K\r\ncontent-type: application/json\r\ncontent-length: 8\r\nconnection: close\r\n\r\n{"a":1}\n');
  try {
    const response = await nodeHttpFetch(`${server.url}/x`);
    assert.equal(response.status, 200);
    assert.equal(response.statusText, '');
    assert.deepEqual(await response.json(), { a: 1 });
  } finally {
    await server.stop();
  }
});

for (const path of ['/never', '/stall-gzip']) {
  test(`a server that goes quiet (${path}) fails the fetch after the idle timeout, as Node's fetch did (it used to wait forever)`, async () => {
    const { routes } = halfRoutes();
    const server = await startScriptedServer(routes);
    try {
      const quickFetch = nodeHttpFetchWithIdleTimeout(300);
      await assert.rejects(settlesWithin(quickFetch(`${server.url}${path}`, { method: 'POST', body: '{}' }), 30_000, 'the fetch'), (error: unknown) => {
        assert.ok(error instanceof TypeError, String(error));
        assert.match((error.cause as Error).message, /the server sent nothing for 0.3 s/);
        return true;
      });
      await settlesWithin(server.allClosed(), 20_000, 'the client closing its socket');
    } finally {
      await server.stop();
    }
  });
}
