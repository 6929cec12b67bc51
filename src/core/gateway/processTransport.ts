import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { findExecutable } from './findExecutable';
import { exitsWithin, killGroup } from '../process/processGroup';

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

const STDERR_TAIL_CHARS = 2000;

/**
 * POSIX launcher: `sh` becomes the process-group leader, starts a watcher that waits for EOF on
 * fd 3 (a pipe whose only writer is this process) and then kills the whole group, and `exec`s the
 * server in its own place (same pid, fd 3 closed for it). If the host dies abruptly (SIGKILL, a
 * crash, a signal to its group) the pipe closes and the upstream's tree goes with it, even for
 * servers that ignore EOF on stdin.
 */
const LAUNCHER = '(read x <&3; kill -9 0) </dev/null >/dev/null 2>&1 & exec "$0" "$@" 3<&-';

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
  private stderrTail = '';
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
    return this.stderrTail.trim();
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('ProcessTransport already started');
    const posix = process.platform !== 'win32';
    // Resolved first, so a missing command is ENOENT here rather than exit code 127 from the launcher.
    const command = posix ? await findExecutable(this.options.command, this.options.env, this.options.cwd) : this.options.command;
    if (this.closedEarly) throw new Error('transport closed before the server started');
    return new Promise((resolve, reject) => {
      const child = posix
        ? spawn('/bin/sh', ['-c', LAUNCHER, command, ...this.options.args], { env: this.options.env, cwd: this.options.cwd, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true })
        : spawn(command, this.options.args, { env: this.options.env, cwd: this.options.cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
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
      // A leader that died may leave children in its group (the fd-3 watcher at least, which also
      // holds our pipes open): end them at once, so 'close' follows.
      child.once('exit', () => killGroup(child, 'SIGKILL'));
      child.once('close', () => {
        this.exited = true;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.drain();
      });
      let partial = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) this.options.onStderrLine?.(line);
      });
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
    const grace = this.options.graceMs ?? 1000;
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (await this.waitExit(grace)) return;
    killGroup(child, 'SIGTERM');
    if (await this.waitExit(grace)) return;
    killGroup(child, 'SIGKILL');
    await this.waitExit(grace);
  }

  /**
   * Synchronous, for exit handlers and editor shutdown: signals the whole tree without waiting
   * (SIGTERM lets servers clean up when there is a moment left; SIGKILL when there is none).
   */
  killNow(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.child && !this.exited) killGroup(this.child, signal);
  }

  private async waitExit(ms: number): Promise<boolean> {
    if (this.exited) return true;
    return exitsWithin(this.exitPromise!, ms);
  }
}
