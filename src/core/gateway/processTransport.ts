import type { ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { endGroup, killGroup, resolveCommand, spawnInGroup, StderrTail } from '../process/processGroup';

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
  private readonly buffer = new ReadBuffer();
  private stderrTail: StderrTail | undefined;
  private exited = false;
  private exitPromise: Promise<void> | undefined;
  /** close() came before the process existed: start() must not spawn it any more. */
  private closedEarly = false;

  constructor(private readonly options: ProcessTransportOptions) {}

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
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.drain();
      });
      this.stderrTail = new StderrTail(child, this.options.onStderrLine);
    });
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A non-JSON line (a server printing to stdout by mistake) is reported, not fatal.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
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
