import type { Readable, Writable } from 'node:stream';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../host';
import { JsonRpcLineReader, type LineEvent } from './jsonRpcLines';

/** The largest request the stdio gateway reads (tool arguments); larger ones are refused with an error. */
export const GATEWAY_MAX_REQUEST_MB = 16;

/** The requests the gateway serves, checked here so that bad params are -32602, not the SDK's -32603. */
const REQUEST_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

type Id = string | number | null;

/**
 * The stdio gateway's server transport. Unlike the SDK's StdioServerTransport (silent on invalid
 * JSON, batches, a missing `jsonrpc` or bad params — the client waits forever — and ending the
 * process on a line over 10 MB), every bad line gets a JSON-RPC error: -32700 for what is not JSON,
 * -32600 for what is not a request (batches included) and for a request over the limit, -32602 for
 * bad params. Refusals are logged.
 */
export class GatewayStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly reader: JsonRpcLineReader;
  private closed = false;
  private readonly log: Logger;
  private readonly onData = (chunk: Buffer) => this.read(chunk);
  private readonly onEnd = () => void this.close();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    log: Logger,
    maxRequestBytes = GATEWAY_MAX_REQUEST_MB * 1024 * 1024,
  ) {
    this.log = log.child('gateway');
    this.reader = new JsonRpcLineReader(maxRequestBytes);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.on('error', (error) => this.onerror?.(error));
  }

  private read(chunk: Buffer): void {
    for (const event of this.reader.push(chunk)) {
      if (event.kind === 'message') this.accept(event.message);
      else this.refuse(event);
    }
  }

  private accept(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message) {
      const schema = REQUEST_SCHEMAS[message.method];
      const checked = schema?.safeParse(message);
      if (checked && !checked.success) {
        const issue = checked.error?.issues[0];
        const where = issue ? `${issue.path.map(String).join('.') || 'params'}: ${issue.message}` : 'invalid';
        this.answerError(message.id, ErrorCode.InvalidParams, `Invalid params for ${message.method} (${where})`);
        return;
      }
    }
    this.onmessage?.(message);
  }

  private refuse(event: Exclude<LineEvent, { kind: 'message' }>): void {
    if (event.kind === 'oversize') {
      const limit = this.reader.maxBytes / (1024 * 1024);
      const id = idIn(event.head);
      this.log.warn(`refused a request of more than ${limit} MB (id ${JSON.stringify(id)}); the gateway's own limit is ${limit} MB`);
      this.answerError(id, ErrorCode.InvalidRequest, `Request too large: over the gateway's ${limit} MB limit`);
      return;
    }
    if (event.kind === 'not-json') {
      this.log.warn(`a line that is not JSON: ${event.sample}`);
      this.answerError(null, ErrorCode.ParseError, 'Parse error: the line is not JSON');
      return;
    }
    const value = event.value;
    if (Array.isArray(value)) {
      this.answerError(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported; send one request per line');
      return;
    }
    const object = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
    const id = object && (typeof object.id === 'string' || typeof object.id === 'number') ? object.id : null;
    if (object?.jsonrpc === '2.0' && typeof object.method === 'string' && id !== null) {
      this.answerError(id, ErrorCode.InvalidParams, `Invalid params for ${object.method}: params must be an object`);
      return;
    }
    const why = !object ? 'not an object' : object.jsonrpc !== '2.0' ? 'missing "jsonrpc": "2.0"' : 'not a JSON-RPC request, notification or response';
    this.log.warn(`an invalid message (${why}): ${event.sample}`);
    this.answerError(id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`);
  }

  private answerError(id: Id, code: number, message: string): void {
    // JSON-RPC answers an unidentifiable request with id null; the SDK's schema has no such message, so it is written here.
    this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n').catch((error) => this.onerror?.(error as Error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  private write(text: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (this.output.write(text)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.onclose?.();
  }
}

/** The id of an oversize request, when its first bytes show it (`{"jsonrpc":"2.0","id":7,…`), so its caller is answered. */
function idIn(head: string): Id {
  const match = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!match) return null;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return null;
  }
}
