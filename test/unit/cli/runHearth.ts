// Runs the `hearth` CLI from source (tsx), or a built bin, as a subprocess with a scratch environment, as a user's shell would.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const HEARTH_MAIN = resolve('src/cli/main.ts');
// By path: the subprocess runs in a scratch workspace, where the bare name `tsx` would not resolve.
export const TSX_LOADER = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href;

export interface HearthRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `env` replaces the environment but for PATH; `stdin` (when given) is written and closed; `bin`
 * runs a built bin (dist/cli.js) instead of the sources.
 */
export function runHearth(args: string[], options: { cwd: string; env: Record<string, string>; stdin?: string; signal?: AbortSignal; bin?: string }): Promise<HearthRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, options.bin ? [options.bin, ...args] : ['--import', TSX_LOADER, HEARTH_MAIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  });
}
