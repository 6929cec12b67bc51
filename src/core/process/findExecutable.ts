import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Finds what `command` would run, as a shell's PATH lookup does, so a missing command is reported
 * as such (ENOENT/EACCES) before anything is spawned. Needed because tool servers and agents are started
 * through a small shell wrapper (see processGroup.ts), which would otherwise turn a missing
 * command into a mere exit code.
 */
export async function findExecutable(command: string, env: NodeJS.ProcessEnv, cwd?: string): Promise<string> {
  const candidates = command.includes('/') ? [isAbsolute(command) ? command : resolve(cwd ?? process.cwd(), command)] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, command));
  let sawNonExecutable = false;
  for (const candidate of candidates) {
    const info = await stat(candidate).catch(() => undefined);
    if (!info?.isFile()) continue;
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      sawNonExecutable = true;
    }
  }
  const code = sawNonExecutable ? 'EACCES' : 'ENOENT';
  throw Object.assign(new Error(`${code === 'ENOENT' ? 'command not found' : 'not executable'}: ${command}`), { code });
}
