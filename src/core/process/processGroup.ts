/**
 * Child processes that Hearth starts (tool servers, ACP agents) run in their own process group, so
 * ending one ends everything it started too (`npx` wrappers, shells, an agent's model CLI and its
 * MCP servers).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { findExecutable } from './findExecutable';

/**
 * POSIX launcher: `sh` becomes the process-group leader, starts a watcher that waits for EOF on
 * fd 3 (a pipe whose only writer is this process) and then kills the whole group, and `exec`s the
 * command in its own place (same pid, fd 3 closed for it). If the host dies abruptly (SIGKILL, a
 * crash, a signal to its group) the pipe closes and the child's tree goes with it, even for
 * programs that ignore EOF on stdin.
 */
const LAUNCHER = '(read x <&3; kill -9 0) </dev/null >/dev/null 2>&1 & exec "$0" "$@" 3<&-';

const STDERR_TAIL_CHARS = 2000;

export interface GroupSpawnOptions {
  /** The complete environment of the child. */
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * What `spawnInGroup` should run: on POSIX the command is looked up first, so a missing one is
 * ENOENT here rather than exit code 127 from the launcher.
 */
export async function resolveCommand(command: string, options: GroupSpawnOptions): Promise<string> {
  return process.platform !== 'win32' ? findExecutable(command, options.env, options.cwd) : command;
}

/** Spawns `command` (from resolveCommand) with piped stdio as the leader of its own process group (its own tree on Windows). */
export function spawnInGroup(command: string, args: readonly string[], options: GroupSpawnOptions): ChildProcess {
  const child =
    process.platform !== 'win32'
      ? spawn('/bin/sh', ['-c', LAUNCHER, command, ...args], { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true })
      : spawn(command, [...args], { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  // A leader that died may leave children in its group (the fd-3 watcher at least, which also
  // holds our pipes open): end them at once, so 'close' follows.
  child.once('exit', () => killGroup(child, 'SIGKILL'));
  return child;
}

/** Keeps the tail of a child's stderr (to explain a failed start or a crash) and reports each non-blank line. */
export class StderrTail {
  private tail = '';

  constructor(child: ChildProcess, onLine?: (line: string) => void) {
    let partial = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      this.tail = (this.tail + text).slice(-STDERR_TAIL_CHARS);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) onLine?.(line);
    });
  }

  /** The last lines written, trimmed. */
  get text(): string {
    return this.tail.trim();
  }
}

/** Signals the child's whole process group (its tree, on Windows); a group already gone is fine. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Closes stdin, then SIGTERM, then SIGKILL, always to the whole process group, giving the child
 * `graceMs` after each step; `exit` settles when the child has closed.
 */
export async function endGroup(child: ChildProcess, exit: Promise<unknown>, graceMs: number): Promise<void> {
  try {
    child.stdin?.end();
  } catch {
    // already closed
  }
  if (await exitsWithin(exit, graceMs)) return;
  killGroup(child, 'SIGTERM');
  if (await exitsWithin(exit, graceMs)) return;
  killGroup(child, 'SIGKILL');
  await exitsWithin(exit, graceMs);
}

/** True when `exit` settles within `ms`, false when the time runs out first. */
export async function exitsWithin(exit: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([exit.then(() => true), timedOut]);
  clearTimeout(timer);
  return result;
}
