import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * `fetch` for short JSON requests (embeddings), over node:http instead of Node's built-in fetch
 * (undici). Node 20's fetch parses HTTP with a WebAssembly module whose background optimization a
 * process waits for when it exits: a cold `hearth search` sat idle ~45 ms after printing its
 * results. Bodies are buffered (no streaming); gzip, deflate and brotli answers are decompressed;
 * redirects are returned as they are. Anything it does not handle (a body other than text or
 * bytes) goes to the built-in fetch.
 */
export async function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body;
  if (input instanceof Request || (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))) return fetch(input, init);
  const url = new URL(String(input));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
  init.signal?.throwIfAborted();
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  if (body != null) headers['content-length'] = String(Buffer.byteLength(body));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = send(url, { method: init.method ?? 'GET', headers, ...(init.signal ? { signal: init.signal } : {}) }, resolve);
    req.on('error', (error) => reject(init.signal?.aborted ? init.signal.reason : new TypeError('fetch failed', { cause: error })));
    req.end(body ?? undefined);
  });
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const decoded = encoding === 'gzip' ? response.pipe(createGunzip()) : encoding === 'deflate' ? response.pipe(createInflate()) : encoding === 'br' ? response.pipe(createBrotliDecompress()) : response;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of decoded) chunks.push(chunk as Buffer);
  } catch (error) {
    throw init.signal?.aborted ? init.signal.reason : new TypeError('fetch failed', { cause: error });
  }
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    // The body is handed over decoded: its encoding and length no longer describe it.
    if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
    for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
  }
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) throw new TypeError(`fetch failed: the server answered status ${status}`);
  // Response refuses a body for these statuses.
  const bodyless = status === 204 || status === 205 || status === 304 || init.method === 'HEAD';
  return new Response(bodyless ? null : Buffer.concat(chunks), { status, statusText: response.statusMessage ?? '', headers: responseHeaders });
}
