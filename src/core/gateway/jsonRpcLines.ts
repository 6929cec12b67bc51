import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Splits an MCP stdio stream (newline-delimited JSON-RPC) into messages, bounded: a line longer than
 * `maxBytes` is reported once and skipped up to its newline without being held in memory, so a
 * 100 MB tool result or a peer writing with no newline costs at most `maxBytes` and never throws out
 * of a stream handler (the SDK's ReadBuffer throws from `append` — an uncaught exception — and
 * copies its whole buffer on every chunk). Used by both ends: ProcessTransport (upstreams) and the
 * stdio gateway's own transport.
 */
export type LineEvent =
  | { kind: 'message'; message: JSONRPCMessage }
  /** A line of more than `maxBytes` (still being skipped when it has no newline yet); `head` is its start. */
  | { kind: 'oversize'; bytes: number; head: string }
  /** Not JSON at all: JSON-RPC's parse error (-32700). `sample` is the line's start. */
  | { kind: 'not-json'; sample: string }
  /** JSON, but not a JSON-RPC 2.0 message: JSON-RPC's invalid request (-32600). */
  | { kind: 'invalid'; value: unknown; sample: string };

const SAMPLE_CHARS = 200;
const HEAD_BYTES = 256;
const NEWLINE = 0x0a;

export class JsonRpcLineReader {
  private chunks: Buffer[] = [];
  private pending = 0;
  /** Inside an oversize line: bytes are dropped until its newline. */
  private skipping = false;

  constructor(readonly maxBytes: number) {}

  /** The events for one chunk of input, in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline >= 0; newline = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.pending + piece.length > this.maxBytes) {
        events.push({ kind: 'oversize', bytes: this.pending + piece.length, head: this.head(piece) });
        this.reset();
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
      this.reset();
      const event = parseLine(line);
      if (event) events.push(event);
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || this.skipping) return events;
    if (this.pending + rest.length > this.maxBytes) {
      events.push({ kind: 'oversize', bytes: this.pending + rest.length, head: this.head(rest) });
      this.reset();
      this.skipping = true;
      return events;
    }
    // Copied: the stream may reuse the chunk's memory.
    this.chunks.push(Buffer.from(rest));
    this.pending += rest.length;
    return events;
  }

  /** Bytes held for an unfinished line. */
  get buffered(): number {
    return this.pending;
  }

  private head(last: Buffer): string {
    return Buffer.concat([...this.chunks.slice(0, 4), last.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES).toString('utf8');
  }

  private reset(): void {
    this.chunks = [];
    this.pending = 0;
  }
}

function parseLine(line: Buffer): LineEvent | undefined {
  const text = line.toString('utf8').replace(/\r$/, '');
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'not-json', sample: text.slice(0, SAMPLE_CHARS) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? { kind: 'message', message: parsed.data } : { kind: 'invalid', value, sample: text.slice(0, SAMPLE_CHARS) };
}
