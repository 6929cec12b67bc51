/**
 * Child processes that Hearth starts (tool servers, ACP agents) run in their own process group, so
 * ending one ends everything it started too.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';

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
