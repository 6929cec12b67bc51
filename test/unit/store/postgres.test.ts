import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { makeKiln, removeKiln } from '../index/kilnIndexHelpers';
import { pgIndex, startOpenAiEmbeddings, startPgServer, type CountingEmbedder, type PgServer } from './pgHelpers';

const NOTES: Record<string, string> = {
  'garden.md': '# Garden\n\nTomatoes need sun and water every morning.\n\n## Pests\n\nAphids on the roses; spray with soap.\n',
  'kitchen.md': '---\ntags: [food]\n---\n# Kitchen\n\nBread rises overnight in the cold oven.\n',
  'travel/rome.md': '# Rome\n\nThe Colosseum at dawn, then espresso near the Pantheon.\n',
};

let server: PgServer;
let embeddings: CountingEmbedder;

before(async () => {
  server = await startPgServer();
  embeddings = await startOpenAiEmbeddings();
});
after(async () => {
  await embeddings?.stop();
  await server?.stop();
});

test('two members (different folders, same notes) on one database: the second embeds nothing, both search', async () => {
  const [a, b] = [makeKiln(NOTES), makeKiln(NOTES)];
  const [first, second] = [pgIndex(a, server.url, embeddings.url), pgIndex(b, server.url, embeddings.url)];
  try {
    const before = embeddings.texts();
    const one = await first.update();
    const firstCalls = embeddings.texts() - before;
    assert.ok(one.chunks >= 4, `chunks: ${one.chunks}`);
    assert.ok(firstCalls >= one.chunks, 'the first member embeds every chunk');
    const mark = embeddings.texts();
    const two = await second.update();
    assert.equal(embeddings.texts() - mark, 0, 'the second member embeds nothing (not even a dimension probe)');
    assert.equal(two.chunks, one.chunks);
    assert.equal(two.unchanged, 3, 'same kiln id: the notes are already indexed for the team');
    // Another kiln (its own namespace) with the same text: its chunks are its own, the vectors shared.
    const c = makeKiln(NOTES);
    const other = pgIndex(c, server.url, embeddings.url, { kiln_id: 'someone/else' });
    try {
      const three = await other.update();
      assert.equal(embeddings.texts() - mark, 0, 'a chunk any member embedded with this model is never embedded again');
      assert.equal(three.reused, one.chunks);
      assert.equal(three.chunks, one.chunks);
      assert.equal((await other.search('Colosseum espresso', { mode: 'hybrid', limit: 1 }))[0]?.path, 'travel/rome.md');
    } finally {
      await other.dispose();
      removeKiln(c);
    }
    for (const index of [first, second]) {
      const semantic = await index.search('Aphids on the roses', { mode: 'semantic', limit: 3 });
      assert.ok(semantic.length > 0 && semantic.every((hit) => hit.path in NOTES), JSON.stringify(semantic));
      assert.equal((await index.search('Aphids roses soap', { mode: 'hybrid', limit: 1 }))[0]?.path, 'garden.md');
    }
  } finally {
    await first.dispose();
    await second.dispose();
    removeKiln(a);
    removeKiln(b);
  }
});
