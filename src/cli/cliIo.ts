import type { Redactor } from '../core/logging/redactor';

/** What a command gets from the process: its streams, environment and folder. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The process's one redactor: main creates it, commands feed it every secret they resolve. */
  redactor?: Redactor;
}

/** A subcommand's entry point: `run(argv, io)` in src/cli/commands/<name>.ts, resolving to the exit code. */
export type CommandRunner = (argv: string[], io: CliIo) => Promise<number>;
