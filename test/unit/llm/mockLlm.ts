// Test support: an aimock server on loopback speaking the OpenAI, cloud_b and Ollama wire formats,
// plus the Ollama metadata routes it lacks (/api/show, detailed /api/tags), served in the real
// wire format. Also a port that is certainly closed, for connection-refused tests.
import { createServer } from 'node:net';
import { createServer as createHttpServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { LLMock } from '@copilotkit/aimock';
import type { ProviderSettings } from '../../../src/core/llm/types';
import type { LlmProviderType } from '../../../src/core/config/providerTypes';

export const GOOD_KEY = 'sk-test-good-key-123';

export interface MockLlm {
  mock: LLMock;
  /** A recording proxy in front of aimock: the journal normalizes bodies, `wire` keeps them raw. */
  url: string;
  /** `METHOD path` of every request, oldest first. */
  requests: string[];
  /** Raw request bodies as the SDKs sent them, oldest first. */
  wire: { path: string; body: Record<string, unknown> }[];
  /** `/api/show` requests seen, by model. */
  showCalls: string[];
  stop(): Promise<void>;
}

/** `extraTags`: more models the runner's /api/tags lists (name and family, as the runner reports them). */
export async function startMockLlm(options: { auth?: boolean; extraTags?: { name: string; family: string }[] } = {}): Promise<MockLlm> {
  const mock = new LLMock({ host: '127.0.0.1', port: 0, ...(options.auth ? { auth: { apiKeys: [GOOD_KEY] } } : {}) } as ConstructorParameters<typeof LLMock>[0]);
  const showCalls: string[] = [];
  mock.mount('/api/show', {
    async handleRequest(req, res) {
      let body = '';
      for await (const chunk of req) body += chunk;
      const model = JSON.parse(body || '{}').model ?? '';
      showCalls.push(model);
      if (model === 'missing') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `model '${model}' not found` }));
        return true;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ details: { family: 'llama', parameter_size: model.startsWith('qwen') ? '494.03M' : '3.2B' }, model_info: { 'general.architecture': 'llama', 'llama.context_length': model.startsWith('qwen') ? 8192 : 131072 } }));
      return true;
    },
  });
  mock.mount('/api/tags', {
    async handleRequest(_req, res) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models: [
        { name: 'llama3.2:latest', model: 'llama3.2:latest', size: 2019393189, details: { family: 'llama', parameter_size: '3.2B', quantization_level: 'Q4_K_M' } },
        { name: 'qwen2.5:0.5b', model: 'qwen2.5:0.5b', size: 397821319, details: { family: 'qwen2', parameter_size: '494.03M' } },
        ...(options.extraTags ?? []).map((t) => ({ name: t.name, model: t.name, size: 1000, details: { family: t.family } })),
      ] }));
      return true;
    },
  });
  const target = await mock.start();
  const wire: MockLlm['wire'] = [];
  const requests: string[] = [];
  const proxy = createHttpServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    if (raw.length > 0) {
      try {
        wire.push({ path: req.url ?? '', body: JSON.parse(raw.toString('utf8')) });
      } catch {
        // not JSON: not interesting to the tests
      }
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>;
    // When the client gives up (timeout tests), the upstream request is dropped too.
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    try {
      const upstream = await fetch(target + (req.url ?? ''), { method: req.method, headers, body: raw.length > 0 ? raw : undefined, signal: abort.signal });
      res.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([k]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(k))));
      if (upstream.body) Readable.fromWeb(upstream.body as never).on('error', () => res.destroy()).pipe(res);
      else res.end();
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  return { mock, url, wire, requests, showCalls, stop: async () => {
      await closeServer(proxy);
      // aimock's stop() waits for idle keep-alive sockets to time out; close them now.
      (mock as unknown as { serverInstance?: { server: Server } }).serverInstance?.server.closeAllConnections();
      await mock.stop();
    },
  };
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function settingsFor(type: LlmProviderType, endpoint: string | undefined, overrides: Partial<ProviderSettings> = {}): ProviderSettings {
  return {
    name: `test_${type}`,
    type,
    model: 'test-model',
    endpoint,
    temperature: 0.7,
    maxTokens: 256,
    timeoutSecs: 10,
    apiKeyRef: undefined,
    apiKeyEnv: [],
    apiKey: undefined,
    implicit: false,
    ...overrides,
  };
}

/** The endpoint each type's SDK expects on the mock: OpenAI-style under /v1, the others at the root. */
export function endpointFor(type: LlmProviderType, url: string): string {
  return type === 'local_runner' || type === 'cloud_b' ? url : `${url}/v1`;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The last raw request body sent to a path ending with `suffix`. */
export function lastWire(server: MockLlm, suffix: string): Record<string, unknown> {
  const entry = [...server.wire].reverse().find((w) => w.path.endsWith(suffix));
  if (!entry) throw new Error(`no request to ${suffix}`);
  return entry.body;
}
