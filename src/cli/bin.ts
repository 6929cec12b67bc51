/**
 * The `hearth` process: dist/cli.js (src/cli/launcher.ts, the package's bin) loads this bundle
 * (dist/cli.cjs), whose commands are split into chunks loaded on first use — `hearth --help` parses
 * a few KB instead of every SDK — and runs it with what it started first.
 */
import { main, type CliLaunch } from './main';

export function runCli(launch: CliLaunch = {}): void {
  endQuietlyWhenOutputCloses(process.stdout);
  goOnWhenErrorOutputCloses(process.stderr);
  void main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() }, launch).then((code) => {
    process.exitCode = code;
  });
}

/**
 * `hearth search … | head`: the reader is gone and a write fails with EPIPE, which unhandled
 * prints a stack trace. Nobody reads what is left to say, so the process ends, as a Unix tool
 * ends on SIGPIPE, without a word.
 */
export function endQuietlyWhenOutputCloses(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

/**
 * `hearth … 2>&1 | head`, or stderr's reader gone: what is left to say there is lost, and the
 * command still ends with its own status (unhandled, the failed write crashed it with status 1).
 * Once the stream is gone a later write fails as destroyed: lost too.
 */
export function goOnWhenErrorOutputCloses(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}
