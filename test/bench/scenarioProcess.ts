// A bench scenario runs in a process of its own (a fresh heap, its own RSS) and prints its figures
// as JSON on its last line of stdout; one that runs past its cap is killed and reported, not waited on.
import { spawn } from 'node:child_process';

export type ScenarioResult = Record<string, number | string | undefined>;

/** Runs `script` (TypeScript, through tsx) with `args`; its last stdout line parsed, or `{error}` saying why there is none. */
export function runScenario(script: string, args: string[], capMs: number): Promise<ScenarioResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), capMs);
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal) return resolve({ error: `stopped after ${capMs / 1000} s` });
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as ScenarioResult);
      } catch {
        resolve({ error: `exited ${code} without a result` });
      }
    });
  });
}
