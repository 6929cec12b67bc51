/**
 * `hearth index` against a hosted embedding provider printed a MaxListenersExceededWarning: every
 * batch's fetch left an abort listener on the run's signal. Through the real openai SDK and an
 * OpenAI-compatible endpoint, 50 batches leave no listener behind and no warning is emitted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { embedAll } from '../../../src/core/index/embedders/batching';
import { OpenAiEmbedder } from '../../../src/core/index/embedders/openaiEmbedder';
import { Redactor } from '../../../src/core/logging/redactor';
import { startEmbeddingsServer } from './fixtures/embeddingsServer';

test('embedding 50 batches leaves no abort listener on the run signal', async () => {
  const server = await startEmbeddingsServer();
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    const embedder = new OpenAiEmbedder('cloud_a', 'emb', server.url, 'key', new Redactor());
    const run = new AbortController();
    const texts = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    const vectors = await embedAll(embedder, texts, { batchSize: 2, maxConcurrent: 4 }, run.signal);
    assert.equal(vectors.length, 100);
    assert.equal(server.calls(), 50);
    assert.equal(getEventListeners(run.signal, 'abort').length, 0);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings.map((w) => w.name), []);
  } finally {
    process.off('warning', onWarning);
    await server.stop();
  }
});

test('aborting the run still aborts the calls in flight', async () => {
  const server = await startEmbeddingsServer();
  try {
    const embedder = new OpenAiEmbedder('cloud_a', 'emb', server.url, 'key', new Redactor());
    const run = new AbortController();
    const texts = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    const pending = embedAll(embedder, texts, { batchSize: 2, maxConcurrent: 2 }, run.signal, (done) => done >= 10 && run.abort(new Error('stop')));
    await assert.rejects(pending, /stop/);
    assert.ok(server.calls() < 50, `${server.calls()} calls: the run stopped early`);
    assert.equal(getEventListeners(run.signal, 'abort').length, 0);
  } finally {
    await server.stop();
  }
});
