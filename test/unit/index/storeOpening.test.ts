// The indexer takes the store while it is opening (the kiln is scanned meanwhile): a store that
// fails to open reports its error to the run and to the search, never an unhandled rejection or a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHashedEmbedServer } from '../../eval/hashedEmbedServer';
import { evalIndex } from './lexicalHelpers';
import { makeKiln, removeKiln } from './kilnIndexHelpers';

test('a store that fails to open while the kiln is scanned: the run and the search reject with its error, a later scan failure wins over it, nothing is left unhandled', async () => {
  const root = makeKiln({ 'a.md': '# A\nhello world\n' });
  const server = await startHashedEmbedServer();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    // The store's folder is a file: opening it fails.
    mkdirSync(join(root, '.hearth/index'), { recursive: true });
    writeFileSync(join(root, '.hearth/index/flat'), 'not a folder');
    const index = evalIndex(root, server.url);
    await assert.rejects(index.update(), (error: Error & { code?: string }) => error.code === 'index.folder_unusable' && error.message.includes('.hearth/index/flat'));
    await assert.rejects(index.search('hello', { limit: 3 }), { code: 'index.folder_unusable' });
    await index.dispose();

    // The kiln a file: its scan and its store's opening both fail; one error is reported, the other handled, not thrown later.
    const gone = evalIndex(join(root, 'a.md'), server.url);
    await assert.rejects(gone.update(), { code: 'index.kiln_missing' });
    await gone.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await server.stop();
    rmSync(join(root, '.hearth'), { recursive: true, force: true });
    removeKiln(root);
  }
});
