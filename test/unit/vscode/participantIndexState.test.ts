// Whether `@hearth` can search the index now, in words the reply shows: no index, one being built
// (with its count), one switched off, one that failed; an index that exists answers even while a
// reindex runs; an index whose check throws (a damaged folder) reads as none, never a crash.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/core/host';
import type { KilnIndex } from '../../../src/core/index/kilnIndex';
import { Redactor } from '../../../src/core/logging/redactor';
import { indexUnavailable, type ParticipantDeps } from '../../../src/vscode/participant/participantDeps';
import type { IndexState } from '../../../src/vscode/index/indexState';
import { makeKiln, removeKiln, tinyIndex } from '../index/kilnIndexHelpers';

let kiln: string;
let built: KilnIndex;
let empty: string;

before(async () => {
  kiln = makeKiln({ 'Bread.md': '# Bread\n\nFlour and water.\n' });
  built = tinyIndex(kiln);
  await built.update();
  empty = makeKiln({ 'Bread.md': '# Bread\n' });
});
after(async () => {
  await built.dispose();
  removeKiln(kiln);
  removeKiln(empty);
});

function deps(index: KilnIndex | undefined, state: IndexState | undefined): ParticipantDeps {
  return {
    kilnRoot: () => kiln,
    workspaceRoot: () => kiln,
    index: () => index,
    indexState: () => state,
    whenIndexOpened: async () => undefined,
    autoContext: () => true,
    catalog: undefined,
    redactor: new Redactor(),
    log: silentLogger,
  };
}

test('no index, one being built, one off, one failed: each says why and what to do', async () => {
  const notBuilt = tinyIndex(empty);
  try {
    assert.equal(await indexUnavailable(deps(undefined, undefined)), 'there is no index yet (run "Hearth: Reindex")');
    assert.equal(await indexUnavailable(deps(notBuilt, { kind: 'indexing', notes: { done: 3, total: 10 } })), 'the index is being built (3 of 10 notes); ask again when it is ready');
    assert.equal(await indexUnavailable(deps(notBuilt, { kind: 'indexing' })), 'the index is being built; ask again when it is ready');
    assert.equal(await indexUnavailable(deps(undefined, { kind: 'off', reason: 'no kiln folder is open' })), 'there is no index: no kiln folder is open');
    assert.match((await indexUnavailable(deps(notBuilt, { kind: 'error', message: 'disk full' })))!, /^the index failed: disk full \(run "Hearth: Reindex"\)$/);
    assert.match((await indexUnavailable(deps(notBuilt, { kind: 'unreachable', message: 'Ollama is not running' })))!, /Ollama is not running/);
  } finally {
    await notBuilt.dispose();
  }
});

test('an index that exists answers, also while a reindex runs', async () => {
  assert.equal(await indexUnavailable(deps(built, { kind: 'ready', notes: 1, chunks: 1 })), undefined);
  assert.equal(await indexUnavailable(deps(built, { kind: 'indexing', notes: { done: 0, total: 1 } })), undefined);
});

test('an index whose check fails reads as none (no throw)', async () => {
  const broken = { exists: async () => { throw new Error('EACCES'); } } as unknown as KilnIndex;
  assert.equal(await indexUnavailable(deps(broken, undefined)), 'there is no index yet (run "Hearth: Reindex")');
});
