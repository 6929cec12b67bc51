// An agent's semantic_search while the kiln's index is being built: the index answers from the notes
// embedded so far, and the tool says so (an agent would otherwise conclude a note does not exist).
// Real pieces: KilnIndex with the OpenAI-compatible embedder (the real SDK) against a loopback server
// that holds the notes' embedding requests until the test lets them go, the index's semantic search
// function and the kiln tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddingSchema, ProcessingSchema } from '../../../src/core/config/schema';
import { silentLogger } from '../../../src/core/host';
import { KilnIndex } from '../../../src/core/index/kilnIndex';
import { indexSemanticSearch } from '../../../src/core/index/semanticSearchFn';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { hashedVector } from '../../eval/hashedEmbedServer';
import { textOf } from '../gateway/helpers';

/** Embeddings on loopback; a request of several texts (the notes' batch) waits for `release()`. */
async function heldEmbeddings(): Promise<{ url: string; held: () => number; release: () => void; stop: () => Promise<void> }> {
  const waiting: (() => void)[] = [];
  let released = false;
  const server = createServer(async (req, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as { model: string; input: string | string[] };
    const input = Array.isArray(body.input) ? body.input : [body.input];
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model: body.model, data: input.map((text, index) => ({ object: 'embedding', index, embedding: hashedVector(text, 32) })), usage: { prompt_tokens: 0, total_tokens: 0 } }));
    };
    if (input.length > 1 && !released) waiting.push(answer);
    else answer();
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    held: () => waiting.length,
    release: () => {
      released = true;
      for (const answer of waiting.splice(0)) answer();
    },
    stop: () => {
      server.closeAllConnections();
      return new Promise((stopped) => server.close(() => stopped()));
    },
  };
}

test('semantic_search while the index is being built says how far it has got; once built, no notice and the note is found', { timeout: 60_000 }, async () => {
  const server = await heldEmbeddings();
  const root = mkdtempSync(join(tmpdir(), 'hearth-indexing-notice-'));
  writeFileSync(join(root, 'zucchini.md'), '# Zucchini\nGrilled zucchini with mint.\n');
  writeFileSync(join(root, 'tomato.md'), '# Tomato\nTomato soup with basil.\n');
  writeFileSync(join(root, 'bread.md'), '# Bread\nSourdough bread, slow rise.\n');
  const index = new KilnIndex({
    kilnRoot: root,
    embedding: EmbeddingSchema.parse({ provider: 'cloud_b', api_url: server.url, model: 'hashed' }),
    processing: ProcessingSchema.parse({}),
    embedderDeps: { env: {} },
    log: silentLogger,
  });
  const tool = createKilnTools({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, semanticSearch: indexSemanticSearch(() => index) }).find((t) => t.name === 'semantic_search')!;
  const ask = async () => JSON.parse(textOf(await tool.call({ query: 'grilled zucchini' }))) as { count: number; results: { path: string }[]; indexing?: { done: number; total: number; note: string } };
  try {
    const run = index.update();
    // The notes' batch is at the server, held: the run has said how many notes it embeds.
    for (let i = 0; i < 400 && (server.held() === 0 || !index.indexing); i++) await new Promise((tick) => setTimeout(tick, 25));
    assert.deepEqual(index.indexing, { done: 0, total: 3 });
    const during = await ask();
    assert.deepEqual(during.indexing && { done: during.indexing.done, total: during.indexing.total }, { done: 0, total: 3 });
    assert.match(during.indexing?.note ?? '', /being built \(0 of 3 notes embedded\): results may be incomplete; text_search reads every note/);
    server.release();
    await run;
    assert.equal(index.indexing, undefined);
    const after = await ask();
    assert.equal(after.indexing, undefined, 'no notice once the run ended');
    assert.equal(after.results[0]?.path, 'zucchini.md');
    // A run for a few saved notes is not a build: no notice while it runs.
    writeFileSync(join(root, 'tomato.md'), '# Tomato\nTomato soup with basil and garlic.\n');
    const saved = index.update({ paths: ['tomato.md'] });
    assert.equal(index.indexing, undefined);
    await saved;
  } finally {
    server.release();
    await index.dispose();
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
