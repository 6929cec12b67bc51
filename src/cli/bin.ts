/**
 * The `hearth` process: dist/cli.js (a tiny CommonJS shim, the package's bin) imports this ESM
 * bundle, whose commands are split into chunks loaded on first use — `hearth --help` parses a few
 * KB instead of every SDK.
 */
import { main } from './main';

export function runCli(): void {
  void main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() }).then((code) => {
    process.exitCode = code;
  });
}

runCli();
