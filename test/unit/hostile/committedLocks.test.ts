// Issue 30, finding 11, the index's side: a writer lock committed with the repository (from a CI
// runner) made every index run wait 120 s and fail. It is now broken at once, and the log says so.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openVectorStore } from '../../../src/core/index/store/openStore';
import { chunksFor, randomVector, rng } from '../store/helpers';

test('a flat index whose writer.lock was committed on another host commits at once, with a notice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-committed-lock-'));
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'writer.lock'), JSON.stringify({ pid: 4242, host: 'ci-runner-7' }));
    const notices: string[] = [];
    const store = await openVectorStore('flat', dir, { providerType: 'local_cpu', model: 'm', dim: 8 }, { notice: (line) => notices.push(line) });
    const next = rng(1);
    await store.upsertNote('a.md', chunksFor('a.md', 2, 'h'), [randomVector(8, next), randomVector(8, next)]);
    await store.commit();
    assert.equal(store.count, 2);
    assert.match(notices.join('\n'), /took over the lock .*writer\.lock: it names another machine \(ci-runner-7\)/);
    assert.equal(existsSync(join(dir, 'writer.lock')), false, 'released after the commit');
    await store.dispose?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
