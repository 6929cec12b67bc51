import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { endGroup, killGroup, resolveCommand, spawnInGroup, StderrTail } from '../../../process/processGroup';
import type { AgentChannel, AgentExit, AgentLaunch, AgentTransport } from './agentTransport';

/**
 * An agent's process tree, its stdio, and the tail of its stderr (to explain crashes). Agents spawn
 * whole trees (node wrappers, the model CLI, its MCP servers): the process group is what is ended,
 * and it ends even when the host dies abruptly (see processGroup.ts).
 */
export class AgentProcess implements AgentChannel {
  private readonly stderrTail: StderrTail;
  private exited = false;
  readonly exit: Promise<AgentExit>;

  private constructor(readonly child: ChildProcess, options: AgentLaunch) {
    this.exit = new Promise((resolve) => child.once('close', (code, signal) => {
      this.exited = true;
      resolve({ code, signal });
    }));
    this.stderrTail = new StderrTail(child, options.onStderrLine);
  }

  static async start(options: AgentLaunch): Promise<AgentProcess> {
    const child = spawnInGroup(await resolveCommand(options.command, options), options.args, options);
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

  get output(): Readable {
    return this.child.stdout!;
  }

  get input(): Writable {
    return this.child.stdin!;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  get stderr(): string {
    return this.stderrTail.text;
  }

  /** Closes stdin, then SIGTERM, then SIGKILL, always to the whole process group. */
  async stop(graceMs = 1000): Promise<void> {
    if (this.exited) return;
    await endGroup(this.child, this.exit, graceMs);
  }

  /** Synchronous, for exit handlers: signals the whole tree without waiting. */
  killNow(): void {
    if (!this.exited) killGroup(this.child, 'SIGKILL');
  }
}

/** The production transport: the profile's command as a process group over stdio. */
export const spawnAgent: AgentTransport = (launch) => AgentProcess.start(launch);
