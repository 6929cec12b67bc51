// nodeHttpFetch (the embedders' fetch over node:http) against loopback servers: what a fetch caller
// (the real OpenAI SDK) relies on — decoded bodies, headers and status as sent, redirects returned,
// fetch-shaped failures — and the real SDK's embeddings through it equal those through Node's fetch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import { nodeHttpFetch } from '../../../src/core/net/nodeHttpFetch';
import { OpenAiEmbedder } from '../../../src/core/index/embedders/openaiEmbedder';
import { normalize } from '../../../src/core/index/embedders/embedder';
import { Redactor } from '../../../src/core/logging/redactor';
import { hashedVector, startHashedEmbedServer } from '../../eval/hashedEmbedServer';
import { startEmbedServer } from '../index/embedServers';
import { startScriptedServer } from './scriptedHttp';

const PAYLOAD = { object: 'list', data: [{ index: 0, embedding: [0.25, -1, 3] }], note: 'caf\u00e9 \u2603 '.repeat(50) };
const ENCODERS: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync, GZIP: gzipSync };

test('gzip, deflate and br answers arrive decoded, without the encoding and length headers that described the wire bytes', async () => {
  const routes = Object.fromEntries(
    Object.entries(ENCODERS).map(([encoding, encode]) => [
      `/${encoding}`,
      (_: unknown, res: import('node:http').ServerResponse) => {
        const wire = encode(Buffer.from(JSON.stringify(PAYLOAD)));
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': String(wire.length) }).end(wire);
      },
    ]),
  );
  const server = await startScriptedServer(routes);
  try {
    for (const encoding of Object.keys(ENCODERS)) {
      const response = await nodeHttpFetch(`${server.url}/${encoding}`);
      assert.equal(response.status, 200, encoding);
      assert.deepEqual(await response.json(), PAYLOAD, encoding);
      assert.equal(response.headers.get('content-encoding'), null, encoding);
      assert.equal(response.headers.get('content-length'), null, encoding);
      assert.equal(response.headers.get('content-type'), 'application/json', encoding);
    }
    assert.equal(server.received[0].headers['accept-encoding'], 'gzip, deflate, br');
  } finally {
    await server.stop();
  }
});

test('stacked content codings (gzip then br, and more) are decoded last-applied first; identity is none; an unknown one leaves the body as sent; six are refused', async () => {
  const json = Buffer.from(JSON.stringify(PAYLOAD));
  const encoded = (codings: string[]) => codings.reduce<Buffer>((body, coding) => ENCODERS[coding](body), json);
  const answer = (header: string, body: Buffer) => (_: unknown, res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': header }).end(body);
  const server = await startScriptedServer({
    '/gzip-br': answer('gzip, br', encoded(['gzip', 'br'])),
    '/three': answer('deflate,gzip , BR', encoded(['deflate', 'gzip', 'br'])),
    '/identity': answer('identity, gzip', encoded(['gzip'])),
    '/unknown': answer('gzip, zstd', encoded(['gzip'])),
    '/proto': answer('constructor', json),
    '/six': answer('gzip, gzip, gzip, gzip, gzip, gzip', encoded(['gzip', 'gzip', 'gzip', 'gzip', 'gzip', 'gzip'])),
  });
  try {
    for (const path of ['/gzip-br', '/three', '/identity']) assert.deepEqual(await (await nodeHttpFetch(`${server.url}${path}`)).json(), PAYLOAD, path);
    assert.deepEqual(Buffer.from(await (await nodeHttpFetch(`${server.url}/unknown`)).arrayBuffer()), encoded(['gzip']), 'a coding it does not know: the bytes as sent');
    assert.deepEqual(await (await nodeHttpFetch(`${server.url}/proto`)).json(), PAYLOAD, 'a coding named like an object property is just unknown');
    await assert.rejects(nodeHttpFetch(`${server.url}/six`), (error: Error) => error instanceof TypeError && /6 content codings/.test(String((error.cause as Error)?.message ?? error.message)));
  } finally {
    await server.stop();
  }
});

test('the request goes out as given (method, headers, text or bytes body) and the answer keeps its status, reason and every header value', async () => {
  const server = await startScriptedServer({
    '/echo': (req, res) => {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; HttpOnly']);
      res.setHeader('x-request-id', 'req-42');
      res.writeHead(201, 'Made It', { 'content-type': 'text/plain' }).end(`${req.method} ${req.body.toString('utf8')}`);
    },
  });
  try {
    const text = await nodeHttpFetch(`${server.url}/echo?q=1`, { method: 'POST', headers: new Headers({ Authorization: 'Bearer t0k', 'X-Custom': 'v' }), body: 'h\u00e9llo' });
    assert.equal(text.status, 201);
    assert.equal(text.statusText, 'Made It');
    assert.equal(text.ok, true);
    assert.deepEqual(text.headers.getSetCookie(), ['a=1; Path=/', 'b=2; HttpOnly']);
    assert.equal(text.headers.get('x-request-id'), 'req-42');
    assert.equal(await text.text(), 'POST h\u00e9llo');
    const [first] = server.received;
    assert.equal(first.path, '/echo?q=1');
    assert.equal(first.headers.authorization, 'Bearer t0k');
    assert.equal(first.headers['x-custom'], 'v');
    assert.equal(first.headers['content-length'], String(Buffer.byteLength('h\u00e9llo')), 'bytes, not characters');

    const bytes = new Uint8Array([0, 1, 2, 255]);
    const put = await nodeHttpFetch(new URL(`${server.url}/echo`), { method: 'PUT', body: bytes });
    assert.equal(put.status, 201);
    assert.deepEqual([...server.received[1].body], [0, 1, 2, 255]);
  } finally {
    await server.stop();
  }
});

test('204 and HEAD answers have no body; a redirect is returned as it is, not followed', async () => {
  const server = await startScriptedServer({
    '/empty': (_, res) => res.writeHead(204).end(),
    '/head': (_, res) => res.writeHead(200, { 'content-length': '5', 'x-a': 'b' }).end(),
    '/moved': (_, res) => res.writeHead(302, { location: '/target' }).end('see /target'),
    '/target': (_, res) => res.writeHead(200).end('followed'),
  });
  try {
    const empty = await nodeHttpFetch(`${server.url}/empty`, { method: 'DELETE' });
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
    const head = await nodeHttpFetch(`${server.url}/head`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('x-a'), 'b');
    assert.equal(await head.text(), '');
    const moved = await nodeHttpFetch(`${server.url}/moved`);
    assert.equal(moved.status, 302);
    assert.equal(moved.headers.get('location'), '/target');
    assert.equal(await moved.text(), 'see /target');
    assert.equal(server.received.filter((r) => r.path === '/target').length, 0, 'the redirect was not followed');
  } finally {
    await server.stop();
  }
});

test('a refused connection rejects with a TypeError whose cause is the socket error (what fetch callers expect)', async () => {
  const server = await startScriptedServer({});
  const url = server.url;
  await server.stop();
  await assert.rejects(nodeHttpFetch(`${url}/v1/embeddings`, { method: 'POST', body: '{}' }), (error: unknown) => {
    assert.ok(error instanceof TypeError, String(error));
    assert.equal((error.cause as NodeJS.ErrnoException).code, 'ECONNREFUSED');
    return true;
  });
});

test('a body that is neither text nor bytes (FormData), and a Request, go to the built-in fetch', async () => {
  const server = await startScriptedServer({ '/form': (req, res) => res.writeHead(200).end(String(req.headers['content-type'])) });
  try {
    const form = new FormData();
    form.set('field', 'value');
    const response = await nodeHttpFetch(`${server.url}/form`, { method: 'POST', body: form });
    assert.match(await response.text(), /^multipart\/form-data; boundary=/);
    assert.match(server.received[0].body.toString('utf8'), /name="field"\r\n\r\nvalue/);
    const request = await nodeHttpFetch(new Request(`${server.url}/form`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/x-request' } }));
    assert.equal(await request.text(), 'text/x-request');
  } finally {
    await server.stop();
  }
});

test('the real OpenAI SDK gets the same embeddings through nodeHttpFetch as through the built-in fetch, plain or gzipped', async () => {
  const hashed = await startHashedEmbedServer(64);
  // The same wire answer, gzipped (as a proxy or CDN in front of a provider sends it).
  const gzipped = await startEmbedServer((path, body, res) => {
    const input = body.input as string[];
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: hashedVector(text, 64) }));
    const wire = gzipSync(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(wire);
  });
  try {
    const texts = ['tomatoes by the garden wall', 'grind the coffee beans', 'caf\u00e9 cr\u00e8me \u2603'];
    const request = { model: 'hashed', input: texts, encoding_format: 'float' as const };
    const builtIn = await new OpenAI({ baseURL: hashed.url, apiKey: 'k', maxRetries: 0 }).embeddings.create(request);
    const ours = await new OpenAI({ baseURL: hashed.url, apiKey: 'k', maxRetries: 0, fetch: nodeHttpFetch }).embeddings.create(request);
    assert.deepEqual(ours.data, builtIn.data);
    assert.deepEqual(ours.data[1].embedding, hashedVector(texts[1], 64));

    const expected = texts.map((t) => normalize(hashedVector(t, 64)));
    const embedder = new OpenAiEmbedder('cloud_b', 'hashed', hashed.url, 'k', new Redactor());
    assert.deepEqual(await embedder.embed(texts), expected);
    const viaGzip = new OpenAiEmbedder('cloud_b', 'hashed', `${gzipped.url}/v1`, 'k', new Redactor());
    assert.deepEqual(await viaGzip.embed(texts), expected);
    assert.equal(gzipped.bodies[0].path, '/v1/embeddings');
  } finally {
    await hashed.stop();
    await gzipped.stop();
  }
});
