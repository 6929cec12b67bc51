// Child process of crossProcessLock.test.ts: adds 1 to a counter file `times` times, each a
// read-then-write under the lock (a lost update means two holders at once).
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { withLock } from '../../../../src/core/fs/crossProcessLock';

async function main(lockPath: string, counter: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await withLock(lockPath, async () => {
      const n = Number(readFileSync(counter, 'utf8'));
      await sleep(1);
      writeFileSync(counter, String(n + 1));
    });
  }
}

if (process.argv[2]) void main(process.argv[2], process.argv[3], Number(process.argv[4]));
