// Test support for the postgres store: a real pglite-server (PostgreSQL's wire protocol, pgvector
// compiled in) as a subprocess on loopback, and an OpenAI-compatible embeddings server that counts
// the texts it embeds.
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { fakeVector, json, startEmbedServer, type EmbedServer } from '../index/embedServers';
import { EmbeddingSchema, ProcessingSchema } from '../../../src/core/config/schema';
import { silentLogger } from '../../../src/core/host';
import { KilnIndex, type KilnIndexOptions } from '../../../src/core/index/kilnIndex';

export const SERVER_SCRIPT = 'node_modules/@electric-sql/pglite-socket/dist/scripts/server.js';

export interface PgServer {
  port: number;
  url: string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts pglite-server (pgvector loaded, 8 connections) on 127.0.0.1; `dataDir` keeps the database across restarts. */
export async function startPgServer(options: { port?: number; dataDir?: string } = {}): Promise<PgServer> {
  const port = options.port ?? (await freePort());
  const args = [SERVER_SCRIPT, '-p', String(port), '-h', '127.0.0.1', '-e', '@electric-sql/pglite-pgvector:vector', '-m', '8'];
  if (options.dataDir) args.push('-d', options.dataDir);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pglite-server exited: ${output}`);
    if (await canConnect(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pglite-server did not listen within 60 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { port, url: `postgres://postgres@127.0.0.1:${port}/postgres`, child, stop };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface CountingEmbedder extends EmbedServer {
  /** Texts embedded so far (a probe included). */
  texts(): number;
}

/** OpenAI's POST /embeddings (float or base64 encoding), 16-dim deterministic vectors per text. */
export async function startOpenAiEmbeddings(dims = 16, delayMs = 0): Promise<CountingEmbedder> {
  const server = await startEmbedServer(async (path, body, res) => {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (!path.endsWith('/embeddings')) return json(res, 404, { error: { message: 'not found' } });
    const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
    const data = input.map((text, index) => {
      const vector = fakeVector(text, dims);
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    });
    json(res, 200, { object: 'list', model: body.model, data, usage: { prompt_tokens: 1, total_tokens: 1 } });
  });
  return {
    ...server,
    texts: () => server.bodies.filter((b) => b.path.endsWith('/embeddings')).reduce((n, b) => n + (Array.isArray(b.body.input) ? b.body.input.length : 1), 0),
  };
}

/**
 * A pglite-server and a counting embeddings server shared by one test file: started before its
 * tests, stopped after them. The two objects are filled in when the servers are up, so a test reads
 * `server.url` as usual.
 */
export function usePgServers(): { server: PgServer; embeddings: CountingEmbedder } {
  const server = {} as PgServer;
  const embeddings = {} as CountingEmbedder;
  before(async () => {
    Object.assign(server, await startPgServer());
    Object.assign(embeddings, await startOpenAiEmbeddings());
  });
  after(async () => {
    await embeddings.stop?.();
    await server.stop?.();
  });
  return { server, embeddings };
}

/** A KilnIndex on the postgres store, embedding through the counting server; `more` sets other options (a logger, `[embedding]` keys). */
export function pgIndex(
  kilnRoot: string,
  databaseUrl: string,
  embedUrl: string,
  processing: Record<string, unknown> = {},
  more: Partial<Omit<KilnIndexOptions, 'embedding'>> & { embedding?: Record<string, unknown> } = {},
): KilnIndex {
  const { embedding, ...rest } = more;
  return new KilnIndex({
    kilnRoot,
    embedding: EmbeddingSchema.parse({ provider: 'cloud_b', model: 'team-embed', api_url: `${embedUrl}/v1`, batch_size: 8, ...embedding }),
    processing: ProcessingSchema.parse({ store: 'postgres', database_url: '{env:HEARTH_DATABASE_URL}', kiln_id: 'team/notes', ...processing }),
    embedderDeps: { env: { HEARTH_DATABASE_URL: databaseUrl, CLOUD_B_API_KEY: 'sk-test-key' } },
    log: silentLogger,
    ...rest,
  });
}
