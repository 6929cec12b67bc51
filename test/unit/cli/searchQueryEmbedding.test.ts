// `hearth search` embeds the query while the index is brought up to date (queryVector). When that run
// fails, the query's request to the embedding provider must not outlive the command: the CLI waits for
// its event loop to drain, so a provider that is slow to answer kept a failed search running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHearth, type HearthRun } from './runHearth';

/** An OpenAI-compatible /embeddings endpoint that takes requests and never answers them (a stalled provider). */
async function stalledEmbeddings(): Promise<{ url: string; requests: IncomingMessage[]; stop: () => Promise<void> }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request) => requests.push(request));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    stop: () => {
      server.closeAllConnections();
      return new Promise((stopped) => server.close(() => stopped()));
    },
  };
}

/** The run, or undefined when it had not ended after `ms` (then it is killed): a guard against a hang, not a timing. */
async function endsWithin(run: Promise<HearthRun>, ms: number): Promise<HearthRun | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([run, hung]);
  } finally {
    clearTimeout(timer);
  }
}

test('hearth search: an index run that fails (the kiln folder is missing) ends the command, the query embedding in flight is abandoned', { timeout: 120_000 }, async () => {
  const provider = await stalledEmbeddings();
  const root = mkdtempSync(join(tmpdir(), 'hearth-search-abort-'));
  try {
    mkdirSync(join(root, '.hearth'));
    writeFileSync(
      join(root, '.hearth', 'config.toml'),
      `kiln_path = ${JSON.stringify(join(root, 'no-such-kiln'))}\n[embedding]\nprovider = "cloud_b"\nmodel = "stalled"\napi_url = ${JSON.stringify(provider.url)}\n`,
    );
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_CACHE_HOME: join(root, 'xdg-cache'), HEARTH_TRUST: '1' };
    const controller = new AbortController();
    const run = runHearth(['search', 'tomatoes', '--workspace', root], { cwd: root, env, signal: controller.signal });
    run.catch(() => undefined);
    // Generous: the command itself fails at once; only a hang waits for the provider's answer (minutes).
    const result = await endsWithin(run, 60_000);
    if (!result) controller.abort();
    assert.ok(result, `hearth search still running 60 s after its index run failed; provider requests: ${provider.requests.length}`);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /does not exist; check kiln_path/);
  } finally {
    await provider.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
