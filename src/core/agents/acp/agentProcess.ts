import { spawn, type ChildProcess } from 'node:child_process';
import { findExecutable } from '../../gateway/findExecutable';
import { exitsWithin, killGroup } from '../../process/processGroup';

export interface AgentProcessOptions {
  command: string;
  args: string[];
  /** The complete environment of the child. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  onStderrLine?: (line: string) => void;
}

const STDERR_TAIL_CHARS = 2000;

/**
 * Same launcher as the gateway's ProcessTransport (see processTransport.ts): `sh` leads a new
 * process group, a watcher kills the group when fd 3 (our pipe) closes, then the agent is exec'd
 * in its place. Agents spawn whole trees (node wrappers, the model CLI, its MCP servers): the
 * group is what is ended, and it ends even when the host dies abruptly.
 */
const LAUNCHER = '(read x <&3; kill -9 0) </dev/null >/dev/null 2>&1 & exec "$0" "$@" 3<&-';

/** An agent's process tree, its stdio, and the tail of its stderr (to explain crashes). */
export class AgentProcess {
  private stderrTail = '';
  private exited = false;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(readonly child: ChildProcess, options: AgentProcessOptions) {
    this.exit = new Promise((resolve) => child.once('close', (code, signal) => {
      this.exited = true;
      resolve({ code, signal });
    }));
    // A leader that died may leave children in its group (the fd-3 watcher at least, which also
    // holds our pipes open): end them at once, so 'close' follows.
    child.once('exit', () => killGroup(child, 'SIGKILL'));
    let partial = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) options.onStderrLine?.(line);
    });
  }

  static async start(options: AgentProcessOptions): Promise<AgentProcess> {
    const posix = process.platform !== 'win32';
    // Resolved first, so a missing command is ENOENT here rather than exit code 127 from the launcher.
    const command = posix ? await findExecutable(options.command, options.env, options.cwd) : options.command;
    const child = posix
      ? spawn('/bin/sh', ['-c', LAUNCHER, command, ...options.args], { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true })
      : spawn(command, options.args, { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        child.off('error', reject);
        resolve();
      });
    });
    // Later errors (EPIPE on a dead agent's stdin) surface as the exit, not as an unhandled throw.
    child.on('error', () => {});
    child.stdin?.on('error', () => {});
    return new AgentProcess(child, options);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  get stderr(): string {
    return this.stderrTail.trim();
  }

  /** Closes stdin, then SIGTERM, then SIGKILL, always to the whole process group. */
  async stop(graceMs = 1000): Promise<void> {
    if (this.exited) return;
    try {
      this.child.stdin?.end();
    } catch {
      // already closed
    }
    if (await this.waitExit(graceMs)) return;
    killGroup(this.child, 'SIGTERM');
    if (await this.waitExit(graceMs)) return;
    killGroup(this.child, 'SIGKILL');
    await this.waitExit(graceMs);
  }

  /** Synchronous, for exit handlers: signals the whole tree without waiting. */
  killNow(): void {
    if (!this.exited) killGroup(this.child, 'SIGKILL');
  }

  private waitExit(ms: number): Promise<boolean> {
    return exitsWithin(this.exit, ms);
  }
}
