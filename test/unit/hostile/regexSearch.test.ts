/**
 * A `/regex/` in text search (CLI, editor) runs on a linear-time engine: a pattern that backtracks
 * exponentially in JavaScript's engine (`/(a+)+$/` on a line of 5 000 `a` and a `b`: 2^5000 steps)
 * returns at once. A test that never returns fails on its timeout, so no clock is read here.
 * Backreferences and lookaround are refused with an error naming the query.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchQueryError, textSearch } from '../../../src/core/kiln/textSearch';

const SCOPE = { exclude: [], max_file_size_kb: 10_000 };

test('catastrophic patterns finish; matches are still found; unsupported syntax is a clear error', { timeout: 30_000 }, async () => {
  const kiln = mkdtempSync(join(tmpdir(), 'hearth-regex-'));
  try {
    writeFileSync(join(kiln, 'evil.md'), `# Evil\n${'a'.repeat(5000)}b\n${'x'.repeat(3000)}\nDate 2024-05-01 here\n`);
    for (const pattern of ['/(a+)+$/', '/(a|aa)+$/', '/(x+x+)+y/']) {
      assert.deepEqual(await textSearch(kiln, SCOPE, pattern, 10), [], pattern);
    }
    assert.deepEqual((await textSearch(kiln, SCOPE, '/^(a|a?)+$/', 10)).map((h) => h.line), [5], 'only the empty last line');
    const hits = await textSearch(kiln, SCOPE, '/(?<year>\\d{4})-\\d\\d-\\d\\d/', 10);
    assert.deepEqual(hits.map((h) => h.line), [4]);
    assert.deepEqual((await textSearch(kiln, SCOPE, '/^DATE/i', 10)).map((h) => h.line), [4]);
    assert.deepEqual((await textSearch(kiln, SCOPE, '/a{1000}b/', 10)).map((h) => h.line), [2]);
    for (const pattern of ['/(a)\\1/', '/a(?=b)/', '/(?<!x)a/', '/a/q', '/[/']) {
      await assert.rejects(textSearch(kiln, SCOPE, pattern, 10), (error: SearchQueryError) => {
        assert.equal(error.code, 'search.bad_query');
        assert.ok(error.message.includes(pattern), error.message);
        return true;
      });
    }
  } finally {
    rmSync(kiln, { recursive: true, force: true });
  }
});
