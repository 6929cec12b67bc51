import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: the unit of /proc/<pid>/stat's start time on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

let bootMs: number | undefined;

/**
 * When process `pid` started (ms since the epoch), where the system says (Linux's /proc); undefined
 * elsewhere or when it is gone. A lock file older than the process it names was not written by it.
 */
export function processStartMs(pid: number): number | undefined {
  if (process.platform !== 'linux' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    bootMs ??= Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]) * 1000;
    if (!Number.isFinite(bootMs) || bootMs <= 0) return undefined;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? bootMs + (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}
