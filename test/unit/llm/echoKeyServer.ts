// Test support: a hostile backend on loopback that echoes the caller's key back in its errors, in
// the OpenAI (chat completions, embeddings) and Anthropic (messages) wire formats, so the real SDKs
// parse what it sends. aimock cannot echo a request's key, hence this small server. The model name
// picks the failure: `echo-400`, `echo-401`, `echo-stream` (a 200 stream that fails midway).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoKeyServer {
  url: string;
  /** The keys the server was sent, in order (to check the test really used the key). */
  keys: string[];
  stop(): Promise<void>;
}

function keyOf(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? '';
  return String(req.headers['x-api-key'] ?? auth.replace(/^Bearer\s+/i, ''));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sse(res: ServerResponse, events: { event?: string; data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`);
  res.end();
}

function openaiChat(res: ServerResponse, model: string, key: string): void {
  if (model === 'echo-401') return json(res, 401, { error: { message: `Incorrect API key provided: ${key}. You can find your API key at the dashboard.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
  if (model === 'echo-400') return json(res, 400, { error: { message: `Invalid request: the key ${key} may not use this model`, type: 'invalid_request_error' } });
  sse(res, [
    { data: { id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { role: 'assistant', content: 'Partial ' }, finish_reason: null }] } },
    { data: { error: { message: `stream aborted for key ${key}`, type: 'server_error' } } },
  ]);
}

function anthropicMessages(res: ServerResponse, model: string, key: string): void {
  if (model === 'echo-401') return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key: ${key}` } });
  if (model === 'echo-400') return json(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: `bad request made with ${key}` } });
  const message = { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 0 } };
  sse(res, [
    { event: 'message_start', data: { type: 'message_start', message } },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial ' } } },
    { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: `overloaded while serving ${key}` } } },
  ]);
}

export async function startEchoKeyServer(): Promise<EchoKeyServer> {
  const keys: string[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as { model?: string }) : {};
    const key = keyOf(req);
    keys.push(key);
    const path = (req.url ?? '').split('?')[0];
    if (path.endsWith('/chat/completions')) return openaiChat(res, String(body.model), key);
    if (path.endsWith('/messages')) return anthropicMessages(res, String(body.model), key);
    // The embeddings failure `hearth index` used to print: the authorization header echoed back.
    if (path.endsWith('/embeddings')) return json(res, 400, { error: { message: `embedding refused for Authorization: Bearer ${key}`, type: 'invalid_request_error' } });
    json(res, 404, { error: { message: `no route ${path}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
