import type { ChildProcess } from 'node:child_process';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { HearthError } from '../errors';
import { endGroup, killGroup, resolveCommand, spawnInGroup, StderrTail } from '../process/processGroup';
import { DEFAULT_MCP_MAX_MESSAGE_MB } from '../config/schema';
import { JsonRpcLineReader } from './jsonRpcLines';

/** After this many lines in a row that are not JSON-RPC, a server is broken, not chatty. */
export const MAX_BAD_LINES = 100;

/** Why a server's stdout was given up on: a message over the limit, or a stream of non-JSON lines. */
export class UpstreamStreamError extends HearthError {
  constructor(
    override readonly code: 'gateway.message_too_large' | 'gateway.not_json_rpc',
    message: string,
  ) {
    super(code, message);
  }
}

export interface ProcessTransportOptions {
  command: string;
  args: string[];
  /** The complete environment of the child (the caller merges in the inherited one). */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Each line the server writes to stderr (servers log there; it also explains failed starts). */
  onStderrLine?: (line: string) => void;
  /** How long a server gets to exit after its stdin closes before it is signalled. */
  graceMs?: number;
  /** The largest message read from the server (`max_message_mb`); a larger one breaks the connection. */
  maxMessageBytes?: number;
}

/**
 * An MCP client transport over a child process's stdio, like the SDK's StdioClientTransport but
 * owning the whole process tree: the child leads its own process group (POSIX) so stopping kills
 * what it spawned too (`npx` wrappers, shells), and the tail of its stderr is kept to explain a
 * failed start. The SDK's own transport only signals the direct child, which leaves grandchildren.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly reader: JsonRpcLineReader;
  private badLines = 0;
  /** Set when the stream was given up on; the close that follows carries it as its reason. */
  private brokenBy: UpstreamStreamError | undefined;
  private stderrTail: StderrTail | undefined;
  private exited = false;
  private exitPromise: Promise<void> | undefined;
  /** close() came before the process existed: start() must not spawn it any more. */
  private closedEarly = false;

  constructor(private readonly options: ProcessTransportOptions) {
    this.reader = new JsonRpcLineReader(options.maxMessageBytes ?? DEFAULT_MCP_MAX_MESSAGE_MB * 1024 * 1024);
  }

  /** Why the stream was given up on, when it was (the connection then closes). */
  get broken(): UpstreamStreamError | undefined {
    return this.brokenBy;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr (for error messages). */
  get stderr(): string {
    return this.stderrTail?.text ?? '';
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('ProcessTransport already started');
    const command = await resolveCommand(this.options.command, this.options);
    if (this.closedEarly) throw new Error('transport closed before the server started');
    return new Promise((resolve, reject) => {
      const child = spawnInGroup(command, this.options.args, this.options);
      this.child = child;
      let spawned = false;
      this.exitPromise = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        if (!spawned) reject(error);
        else this.onerror?.(error);
      });
      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      child.once('close', () => {
        this.exited = true;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      this.stderrTail = new StderrTail(child, this.options.onStderrLine);
    });
  }

  private read(chunk: Buffer): void {
    if (this.brokenBy) return;
    for (const event of this.reader.push(chunk)) {
      if (event.kind === 'message') {
        this.badLines = 0;
        this.onmessage?.(event.message);
        continue;
      }
      if (event.kind === 'oversize') {
        const limit = (this.reader.maxBytes / (1024 * 1024)).toFixed(0);
        return this.give(new UpstreamStreamError('gateway.message_too_large', `sent a message of more than ${limit} MB (max_message_mb = ${limit})`));
      }
      // A stray line (a server logging to stdout by mistake) is reported; an endless stream of them is a broken server.
      this.onerror?.(new Error(`not a JSON-RPC message: ${event.sample}`));
      if (++this.badLines >= MAX_BAD_LINES) {
        return this.give(new UpstreamStreamError('gateway.not_json_rpc', `wrote ${MAX_BAD_LINES} lines in a row that are not JSON-RPC, e.g. "${event.sample.slice(0, 120)}"`));
      }
    }
  }

  /** Stops reading and ends the server; the close that follows reports `error` as its reason. */
  private give(error: UpstreamStreamError): void {
    this.brokenBy = error;
    // Our end of its stdout closed: a server that keeps writing gets EPIPE instead of costing CPU until it is gone.
    this.child?.stdout?.destroy();
    this.onerror?.(error);
    void this.close();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exited || !stdin.writable) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, then SIGTERM, then SIGKILL, always to the whole process group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) this.closedEarly = true;
    if (!child || this.exited) return;
    await endGroup(child, this.exitPromise!, this.options.graceMs ?? 1000);
  }

  /**
   * Synchronous, for exit handlers and editor shutdown: signals the whole tree without waiting
   * (SIGTERM lets servers clean up when there is a moment left; SIGKILL when there is none).
   */
  killNow(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.child && !this.exited) killGroup(this.child, signal);
  }
}
