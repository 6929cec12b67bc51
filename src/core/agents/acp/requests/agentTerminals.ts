/**
 * The terminal capability (`terminal/create`, `output`, `wait_for_exit`, `kill`, `release`): an
 * agent asks Hearth to run a command. Each command runs only in a trusted folder, with its cwd
 * confined to the workspace, after a permission prompt that names the exact command line (allow
 * once, or that command for the session; `--yes` in the CLI), as its own process group so kill,
 * cancel and closing the conversation end its whole tree. Output is kept up to the agent's
 * `outputByteLimit` (and Hearth's own cap) and streamed into the chat.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { ChildProcess } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { describeError } from '../../../errors';
import type { Logger } from '../../../host';
import { killGroup, resolveCommand, spawnInGroup } from '../../../process/processGroup';
import type { AgentEvent } from '../../agentSession';
import { OutputBuffer } from './outputBuffer';
import type { PermissionBroker } from './permissionBroker';

export const TERMINAL_LIMITS = {
  /** Command, arguments and environment together. */
  commandBytes: 64 * 1024,
  /** Terminals alive at once per session. */
  terminals: 16,
  /** Output kept when the agent sets no limit, and the most it may ask for. */
  outputBytes: 1024 * 1024,
  maxOutputBytes: 16 * 1024 * 1024,
  /** Characters of output shown live in the chat per update. */
  liveChars: 8_000,
} as const;

export interface AgentTerminalsOptions {
  agentName: string;
  workspaceRoot: string;
  /** The agent's own environment, which its commands inherit. */
  env: NodeJS.ProcessEnv;
  /** False where the folder is not trusted: no command runs. */
  trusted(): boolean;
  broker: PermissionBroker;
  log: Logger;
  push(event: AgentEvent): void;
  turnSignal(): AbortSignal | undefined;
  waitingForUser<T>(work: () => Promise<T>): Promise<T>;
}

interface Running {
  id: string;
  commandLine: string;
  child: ChildProcess;
  output: OutputBuffer;
  exit: Promise<acp.TerminalExitStatus>;
  exitStatus?: acp.TerminalExitStatus;
  lastShown: number;
}

export class AgentTerminals {
  private readonly running = new Map<string, Running>();
  private next = 0;

  constructor(private readonly options: AgentTerminalsOptions) {}

  async create(params: acp.CreateTerminalRequest, requestSignal: AbortSignal): Promise<acp.CreateTerminalResponse> {
    const { agentName } = this.options;
    if (!this.options.trusted()) throw refused(`${agentName} asked to run a command, but this folder is not trusted; nothing was run.`);
    const args = Array.isArray(params.args) ? params.args : [];
    const env = Array.isArray(params.env) ? params.env : [];
    const bytes = (text: unknown) => (typeof text === 'string' ? Buffer.byteLength(text) : 0);
    const size = bytes(params.command) + args.reduce((n, a) => n + bytes(a), 0) + env.reduce((n, v) => n + bytes(v.name) + bytes(v.value), 0);
    if (size > TERMINAL_LIMITS.commandBytes) throw refused(`the command line is ${size} bytes; commands over ${TERMINAL_LIMITS.commandBytes} bytes are refused.`);
    if (this.running.size >= TERMINAL_LIMITS.terminals) throw refused(`${TERMINAL_LIMITS.terminals} terminals are open; release one first.`);
    const cwd = await this.confine(params.cwd ?? undefined);
    const commandLine = [params.command, ...args].map(quote).join(' ');
    const signal = this.options.turnSignal() ? AbortSignal.any([requestSignal, this.options.turnSignal()!]) : requestSignal;
    const shownCwd = relative(this.options.workspaceRoot, cwd) || '.';
    const decision = await this.options.waitingForUser(() => this.options.broker.decide(`terminal\u0000${cwd}\u0000${commandLine}`, {
      toolCallId: `terminal:${commandLine}`.slice(0, 200),
      title: `${agentName} wants to run: ${commandLine}`,
      detail: `in ${shownCwd}${env.length ? `\nwith ${env.map((v) => v.name).join(', ')} set` : ''}`,
      options: [
        { optionId: 'allow', name: 'Run it', kind: 'allow_once' },
        { optionId: 'allow_session', name: 'Allow this command for the session', kind: 'allow_always' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    }, signal));
    if (!decision.allowed) throw refused(`the user did not allow running ${commandLine}.`);
    const limit = Math.min(typeof params.outputByteLimit === 'number' && params.outputByteLimit >= 0 ? params.outputByteLimit : TERMINAL_LIMITS.outputBytes, TERMINAL_LIMITS.maxOutputBytes);
    const childEnv = { ...this.options.env, ...Object.fromEntries(env.map((v) => [v.name, v.value])) };
    let child: ChildProcess;
    try {
      child = spawnInGroup(await resolveCommand(params.command, { env: childEnv, cwd }), args, { env: childEnv, cwd });
    } catch (error) {
      throw refused(`could not start ${params.command}: ${describeError(error)}`);
    }
    const id = `term-${++this.next}`;
    child.stdin?.end();
    const output = new OutputBuffer(limit);
    const exit = new Promise<acp.TerminalExitStatus>((done) => {
      child.once('error', (error) => {
        output.push(Buffer.from(`${describeError(error)}\n`));
        done({ exitCode: null, signal: null });
      });
      child.once('close', (code, sig) => done({ exitCode: code, signal: sig }));
    });
    const term: Running = { id, commandLine, child, output, exit, lastShown: 0 };
    exit.then((status) => {
      term.exitStatus = status;
      this.show(term, true);
    });
    const onData = (chunk: Buffer) => {
      output.push(chunk);
      this.show(term, false);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    this.running.set(id, term);
    this.options.log.info(`running ${commandLine} in ${shownCwd} (${id})`);
    this.show(term, true);
    return { terminalId: id };
  }

  output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    const term = this.get(params.terminalId);
    return { output: term.output.text(), truncated: term.output.truncated, ...(term.exitStatus ? { exitStatus: term.exitStatus } : {}) };
  }

  async waitForExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse> {
    const term = this.get(params.terminalId);
    const aborted = new Promise<never>((_, fail) => signal.addEventListener('abort', () => fail(refused('the wait was cancelled')), { once: true }));
    return Promise.race([term.exit, aborted]);
  }

  kill(params: acp.KillTerminalRequest): Record<string, never> {
    const term = this.get(params.terminalId);
    if (!term.exitStatus) killGroup(term.child, 'SIGKILL');
    return {};
  }

  release(params: acp.ReleaseTerminalRequest): Record<string, never> {
    const term = this.get(params.terminalId);
    if (!term.exitStatus) killGroup(term.child, 'SIGKILL');
    this.running.delete(term.id);
    return {};
  }

  /** Cancel, closing the conversation, the agent ending: every command's process tree ends. */
  killAll(): void {
    for (const term of this.running.values()) if (!term.exitStatus) killGroup(term.child, 'SIGKILL');
    this.running.clear();
  }

  /** Pids still running (tests and diagnostics). */
  get pids(): number[] {
    return [...this.running.values()].flatMap((t) => (t.exitStatus || t.child.pid === undefined ? [] : [t.child.pid]));
  }

  private get(id: string): Running {
    const term = this.running.get(id);
    if (!term) throw RequestError.invalidParams(undefined, `no terminal "${id}" (released, or never created)`);
    return term;
  }

  /** The cwd the agent asked for, resolved (links too) and inside the workspace; refused otherwise. */
  private async confine(cwd: string | undefined): Promise<string> {
    const root = await realpath(this.options.workspaceRoot);
    if (cwd !== undefined && !isAbsolute(cwd)) throw refused(`the cwd "${cwd.slice(0, 200)}" is not an absolute path.`);
    let real: string;
    try {
      real = await realpath(resolve(cwd ?? root));
    } catch {
      throw refused(`the cwd "${(cwd ?? '').slice(0, 200)}" does not exist.`);
    }
    const inside = relative(root, real);
    if (inside.startsWith('..') || isAbsolute(inside)) throw refused(`the cwd "${(cwd ?? '').slice(0, 200)}" is outside the workspace; commands run only inside it.`);
    return real;
  }

  /** A live view in the chat: at most every 250 ms while it runs, always at start and end. */
  private show(term: Running, force: boolean): void {
    const now = Date.now();
    if (!force && now - term.lastShown < 250) return;
    term.lastShown = now;
    this.options.push({
      type: 'terminal',
      id: term.id,
      command: term.commandLine,
      output: term.output.tail(TERMINAL_LIMITS.liveChars),
      ...(term.output.truncated || term.output.text().length > TERMINAL_LIMITS.liveChars ? { truncated: true } : {}),
      ...(term.exitStatus ? { exit: { code: term.exitStatus.exitCode ?? null, signal: term.exitStatus.signal ?? null } } : {}),
    });
  }
}

function refused(message: string): RequestError {
  return new RequestError(-32602, `Terminal refused: ${message}`);
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
