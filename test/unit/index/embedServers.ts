// Test support: tiny HTTP servers on loopback speaking embedding wire formats that aimock lacks or
// that a test must script (Ollama /api/embed, OpenAI /embeddings answering 429 first).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

export interface EmbedServer {
  url: string;
  /** Request bodies seen, oldest first. */
  bodies: { path: string; body: Record<string, unknown> }[];
  stop(): Promise<void>;
}

/** A deterministic vector per text (hash bytes spread over dims), not normalized on purpose. */
export function fakeVector(text: string, dims = 8): number[] {
  const hash = createHash('sha256').update(text).digest();
  return Array.from({ length: dims }, (_, i) => hash[i % hash.length] - 128 + 0.5);
}

export async function startEmbedServer(handler: (path: string, body: Record<string, unknown>, res: ServerResponse) => void): Promise<EmbedServer> {
  const bodies: EmbedServer['bodies'] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    bodies.push({ path: req.url ?? '', body });
    handler(req.url ?? '', body, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Ollama's /api/embed: `{model, input: string[]}` → `{model, embeddings}`; unknown model → 404. */
export function startOllamaEmbed(knownModel = 'nomic-embed-text'): Promise<EmbedServer> {
  return startEmbedServer((path, body, res) => {
    if (path !== '/api/embed') return json(res, 404, { error: 'not found' });
    if (body.model !== knownModel) return json(res, 404, { error: `model "${String(body.model)}" not found, try pulling it first` });
    const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
    json(res, 200, { model: knownModel, embeddings: input.map((t) => fakeVector(t)) });
  });
}
