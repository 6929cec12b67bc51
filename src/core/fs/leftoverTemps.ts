import { lstat, readdir, unlink } from 'node:fs/promises';
import type { OpenDir } from './rootAnchor';

/** A live writer's temp file lives milliseconds; one this old was left by a kill -9. */
export const LEFTOVER_TEMP_MS = 10 * 60_000;

/** `.<name>.<12 hex>.hearth-tmp`: the temp file ConfinedRoot.write makes beside a note. */
const CONFINED_TEMP = /^\..+\.[0-9a-f]{12}\.hearth-tmp$/;

/**
 * Removes what killed writers left in one folder (opened and checked by the caller): names of the
 * temp shape that `lstat` as regular files older than LEFTOVER_TEMP_MS. Nothing else is touched,
 * and a folder is looked at once per `everyMs` by one `sweeper`, so writes stay cheap.
 */
export class LeftoverSweeper {
  private readonly swept = new Map<string, number>();

  constructor(private readonly everyMs = LEFTOVER_TEMP_MS) {}

  async sweep(dir: OpenDir): Promise<number> {
    const now = Date.now();
    if (now - (this.swept.get(dir.real) ?? -Infinity) < this.everyMs) return 0;
    this.swept.set(dir.real, now);
    let removed = 0;
    for (const name of await readdir(dir.pathOf('')).catch(() => [] as string[])) {
      if (!CONFINED_TEMP.test(name)) continue;
      const info = await lstat(dir.pathOf(name)).catch(() => undefined);
      if (info?.isFile() && now - info.mtimeMs > LEFTOVER_TEMP_MS && (await unlink(dir.pathOf(name)).then(() => true, () => false))) removed++;
    }
    return removed;
  }
}
