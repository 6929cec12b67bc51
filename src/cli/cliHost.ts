/**
 * The Host the core runs against in the `hearth` command (DESIGN.md decisions 2, 12, 13): log lines
 * on stderr (stdout is the command's output, or an MCP channel) above `[logging].level` (`debug`
 * with `[cli].verbose` or `--verbose`), every registered secret redacted; progress on stderr when
 * `[cli].show_progress`; a y/N prompt before destructive work when `[cli].confirm_destructive`
 * (`--yes` answers for the user); secrets read from environment variables.
 */
import { inspect } from 'node:util';
import type { CliConfig } from '../core/config/schema';
import { protectedQuestion, type ProtectedWriteRequest } from '../core/fs/writeGate';
import type { Host, Logger, LogLevel, Progress, ProgressOptions, SecretStore } from '../core/host';
import { isLevelEnabled, Redactor, redactingLogger } from '../core/logging/redactingLogger';
import { sinkLogger } from '../core/logging/sinkLogger';
import { createProgressView, type ProgressView } from './terminalProgress';

export interface CliHostOptions {
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** Lines more detailed than this are dropped. */
  level: LogLevel;
  cli: Pick<CliConfig, 'show_progress' | 'confirm_destructive'>;
  /** `--yes`: every confirmation is answered yes without asking. */
  yes?: boolean;
  redactor?: Redactor;
  /** Whether `confirm` may ask on stdin; default: stdin is a terminal. */
  interactive?: boolean;
  /** Whether progress redraws a bar; default: stderr is a terminal. */
  progressBar?: boolean;
  /** Whether a cancellable `withProgress` turns Ctrl-C into its abort signal (default true). */
  handleInterrupt?: boolean;
}

const isTty = (stream: unknown) => (stream as { isTTY?: boolean }).isTTY === true;

export class CliHost implements Host {
  readonly log: Logger;
  readonly secrets: SecretStore;
  readonly redactor: Redactor;
  private readonly stderr: NodeJS.WritableStream;
  private readonly stdin: NodeJS.ReadableStream;
  /** The progress shown now, cleared around log lines so they do not interleave with the bar. */
  private active: ProgressView | undefined;

  constructor(private readonly options: CliHostOptions) {
    this.stderr = options.stderr;
    this.stdin = options.stdin;
    this.redactor = options.redactor ?? new Redactor();
    // In the CLI `{secret:NAME}` reads the environment variable NAME (DESIGN.md decision 2).
    this.secrets = { get: async (name) => options.env[name] };
    const plain = sinkLogger((level, message, args) => {
      if (!isLevelEnabled(level, options.level)) return;
      const rest = args.map((arg) => formatArg(arg, options.level));
      this.writeLine(`[${level}] ${[message, ...rest].join(' ')}`);
    });
    this.log = redactingLogger(plain, this.redactor);
  }

  get level(): LogLevel {
    return this.options.level;
  }

  /** Writes a line to stderr for the user (not a log line), redacted, around any progress bar. */
  writeLine(text: string): void {
    this.active?.clear();
    this.stderr.write(`${this.redactor.redact(text)}\n`);
    this.active?.redraw();
  }

  async withProgress<T>(options: ProgressOptions, work: (progress: Progress, signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const view = this.options.cli.show_progress && !this.active ? createProgressView(this.stderr, options.title, this.options.progressBar ?? isTty(this.stderr)) : undefined;
    // Nested progress reports into the outer one's line; with show_progress off nothing is drawn.
    const progress: Progress = view ?? this.active ?? { report() {} };
    const stopInterrupt = options.cancellable && this.options.handleInterrupt !== false ? this.interruptAborts(controller) : () => {};
    if (view) this.active = view;
    try {
      const result = await work(progress, controller.signal);
      view?.finish('done');
      return result;
    } catch (error) {
      view?.finish(controller.signal.aborted ? 'cancelled' : 'failed');
      throw error;
    } finally {
      if (view) this.active = undefined;
      stopInterrupt();
    }
  }

  /** First Ctrl-C asks the work to stop (it may need a moment to leave things consistent); a second one quits. */
  private interruptAborts(controller: AbortController): () => void {
    const onInterrupt = () => {
      if (controller.signal.aborted) process.exit(130);
      this.writeLine('hearth: cancelling… (press Ctrl-C again to quit at once)');
      controller.abort();
    };
    process.on('SIGINT', onInterrupt);
    return () => process.off('SIGINT', onInterrupt);
  }

  async confirm(message: string, detail?: string): Promise<boolean> {
    if (!this.options.cli.confirm_destructive || this.options.yes) return true;
    const question = detail ? `${message}\n${detail}` : message;
    if (!(this.options.interactive ?? isTty(this.stdin))) {
      this.writeLine(`hearth: ${question}\nhearth: not done: confirmation needed but stdin is not a terminal; pass --yes to proceed (or set [cli].confirm_destructive = false).`);
      return false;
    }
    this.active?.clear();
    this.stderr.write(`${this.redactor.redact(question)}\nContinue? [y/N] `);
    const answer = await readLine(this.stdin);
    if (answer === undefined) {
      this.stderr.write('\nhearth: not done: no answer (end of input); pass --yes to proceed without asking.\n');
      this.active?.redraw();
      return false;
    }
    this.active?.redraw();
    return /^\s*y(es)?\s*$/i.test(answer);
  }

  /** Protected paths ask on the terminal every time; `--yes` and confirm_destructive do not answer for the user. */
  async confirmProtected(request: ProtectedWriteRequest): Promise<boolean | undefined> {
    const { message, detail } = protectedQuestion(request);
    if (!(this.options.interactive ?? isTty(this.stdin))) {
      this.writeLine(`hearth: refused: ${message}\nhearth: ${detail}\nhearth: nobody can be asked here (stdin is not a terminal); --yes does not cover protected paths.`);
      return undefined;
    }
    this.active?.clear();
    this.stderr.write(`${this.redactor.redact(`${message}\n${detail}`)}\nAllow? [y/N] `);
    const answer = await readLine(this.stdin);
    this.active?.redraw();
    if (answer === undefined) return false;
    return /^\s*y(es)?\s*$/i.test(answer);
  }
}

function formatArg(arg: unknown, level: LogLevel): string {
  if (typeof arg === 'string') return arg;
  // Stacks only where the user asked for detail.
  if (arg instanceof Error) return isLevelEnabled('debug', level) && arg.stack ? arg.stack : arg.message;
  return inspect(arg, { depth: 4, breakLength: Infinity });
}

/**
 * One line from `stream`, or undefined at end of input. Reads chunk by chunk and puts back what
 * follows the line, so a later prompt (or the command) still gets it.
 */
export function readLine(stream: NodeJS.ReadableStream): Promise<string | undefined> {
  const readable = stream as NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean; unshift?(chunk: Buffer): void };
  if (readable.readableEnded || readable.destroyed) return Promise.resolve(undefined);
  return new Promise((done) => {
    let buffered = '';
    const finish = (line: string | undefined) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('close', onEnd);
      stream.off('error', onEnd);
      stream.pause();
      done(line);
    };
    const onData = (chunk: Buffer | string) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      const rest = buffered.slice(newline + 1);
      finish(buffered.slice(0, newline).replace(/\r$/, ''));
      // After finish: the stream is paused, so the rest is buffered instead of emitted again.
      if (rest && readable.unshift) readable.unshift(Buffer.from(rest));
    };
    // End of input after a partial line still counts as that answer.
    const onEnd = () => finish(buffered.length > 0 ? buffered : undefined);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('close', onEnd);
    stream.once('error', onEnd);
    stream.resume();
  });
}
