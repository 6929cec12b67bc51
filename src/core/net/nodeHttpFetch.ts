import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * The most an answer may hold once decoded. Embeddings of a full batch are a few MB; a hostile or
 * broken server's compressed answer (a gzip bomb: 100 KB inflating to gigabytes) is refused
 * before it exhausts memory.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * How long the server may send nothing, before its answer or within it, as Node's fetch allows
 * (undici's headers and body timeouts, 300 s each): a runner that accepts the request and never
 * answers fails it then instead of holding `hearth index` or `hearth search` forever.
 */
export const IDLE_TIMEOUT_MS = 300_000;

/** The reason phrase the Response constructor accepts (HTTP's reason-phrase: tab, visible ASCII, obs-text). */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * `fetch` for short JSON requests (embeddings), over node:http instead of Node's built-in fetch
 * (undici). Node 20's fetch parses HTTP with a WebAssembly module whose background optimization a
 * process waits for when it exits: a cold `hearth search` sat idle ~45 ms after printing its
 * results. Bodies are buffered (no streaming, at most MAX_ANSWER_BYTES); gzip, deflate and brotli
 * answers are decompressed; redirects are returned as they are. Anything it does not handle (a
 * body other than text or bytes) goes to the built-in fetch. Failures are what fetch gives: the
 * abort reason, or a TypeError whose cause says what went wrong.
 */
export function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  return httpFetch(input, init, IDLE_TIMEOUT_MS);
}

/** nodeHttpFetch with another idle timeout (tests: a stalled server without waiting five minutes). */
export function nodeHttpFetchWithIdleTimeout(idleMs: number): typeof nodeHttpFetch {
  return (input, init = {}) => httpFetch(input, init, idleMs);
}

async function httpFetch(input: string | URL | Request, init: RequestInit, idleMs: number): Promise<Response> {
  const body = init.body;
  if (input instanceof Request || (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))) return fetch(input, init);
  const url = new URL(String(input));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
  init.signal?.throwIfAborted();
  let quiet: Error | undefined;
  const failure = (error: unknown) => (init.signal?.aborted ? init.signal.reason : new TypeError('fetch failed', { cause: quiet ?? error }));
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  if (body != null) headers['content-length'] = String(Buffer.byteLength(body));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = send(url, { method: init.method ?? 'GET', headers, ...(init.signal ? { signal: init.signal } : {}) }, resolve);
    req.setTimeout(idleMs, () => {
      quiet = new Error(`the server sent nothing for ${idleMs / 1000} s`);
      req.destroy(quiet);
    });
    req.on('error', (error) => reject(failure(error)));
    // A 101 answer to a request that asked for no upgrade ends the request with neither a response
    // nor an error; without this the caller would wait forever. (After a response: no effect.)
    req.on('close', () => reject(failure(new Error('the connection closed before an answer arrived'))));
    req.end(body ?? undefined);
  });
  let decoders: Transform[];
  try {
    decoders = decodersFor(String(response.headers['content-encoding'] ?? ''));
  } catch (error) {
    response.destroy();
    throw failure(error);
  }
  // pipeline, not pipe: the socket closing mid-body, an abort or a corrupt stream on any side
  // ends them all, so the read below fails instead of waiting forever or taking a truncated body.
  if (decoders.length > 0) pipeline([response, ...decoders], () => undefined);
  const decoded: Readable = decoders.at(-1) ?? response;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoded) {
      size += (chunk as Buffer).length;
      if (size > MAX_ANSWER_BYTES) throw new Error(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    // Lets go of the socket (a server that keeps it open must not keep this process alive).
    response.destroy();
    throw failure(error);
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
  const bodyless = status === 204 || status === 205 || status === 304 || init.method?.toUpperCase() === 'HEAD';
  const reason = response.statusMessage ?? '';
  return new Response(bodyless ? null : Buffer.concat(chunks), { status, statusText: REASON_PHRASE.test(reason) ? reason : '', headers: responseHeaders });
}

/** More codings than this on one answer is a hostile or broken server (undici's limit too). */
const MAX_CODINGS = 5;

/** A Map, not an object: a coding named `constructor` or `__proto__` is just unknown. */
const DECODERS = new Map<string, () => Transform>([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

/**
 * The decoders of a Content-Encoding list, last applied first (`gzip, br` was gzipped, then
 * brotli-compressed). A coding it does not know leaves the body as sent, as Node's fetch does.
 */
function decodersFor(contentEncoding: string): Transform[] {
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > MAX_CODINGS) throw new Error(`the answer names ${codings.length} content codings (at most ${MAX_CODINGS})`);
  const known = codings.map((coding) => DECODERS.get(coding));
  if (known.some((make) => make === undefined)) return [];
  return known.reverse().map((make) => make!());
}
