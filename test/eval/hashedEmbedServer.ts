// A deterministic OpenAI-compatible embeddings server on loopback for the eval and the bench: each
// text becomes a hashed bag of words (word → one of `dims` buckets with a sign, weight 1 + log tf).
// It is a weak embedder on purpose (shared words only, no meaning), the kind a fusion must not let
// drag a clear lexical match down. The index talks to it through the real OpenAI client.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HashedEmbedServer {
  /** Base URL for `[embedding] api_url` (ends in /v1). */
  url: string;
  requests: number;
  texts: number;
  stop(): Promise<void>;
}

const WORD = /[\p{L}\p{N}]+/gu;

export function hashedVector(text: string, dims: number): number[] {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  const vector = new Array<number>(dims).fill(0);
  for (const [word, tf] of counts) {
    const h = createHash('md5').update(word).digest();
    vector[h.readUInt32LE(0) % dims] += (h[4] & 1 ? 1 : -1) * (1 + Math.log(tf));
  }
  // An empty text still gets a direction (cosine of a zero vector is undefined).
  if (counts.size === 0) vector[0] = 1;
  return vector;
}

export async function startHashedEmbedServer(dims = 256): Promise<HashedEmbedServer> {
  const state = { requests: 0, texts: 0 };
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const body = JSON.parse(raw) as { model: string; input: string | string[] };
    const input = Array.isArray(body.input) ? body.input : [body.input];
    state.requests++;
    state.texts += input.length;
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: hashedVector(text, dims) }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    get texts() {
      return state.texts;
    },
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  } as HashedEmbedServer;
}
