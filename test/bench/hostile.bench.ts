// The hostile-input suite's cases, timed (the unit tests count steps; wall-clock lives here).
// Each line is one input that once stalled or crashed Hearth (issue 13), with today's time for it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TomlLocator } from '../../src/core/config/tomlLocator';
import { JsonRpcLineReader } from '../../src/core/gateway/jsonRpcLines';
import { parseNote } from '../../src/core/kiln/note';
import { textSearch } from '../../src/core/kiln/textSearch';
import { runJournalBench } from './journalBench';

export async function runHostileBench(): Promise<{ label: string; value: string }[]> {
  const lines: { label: string; value: string }[] = [];
  const time = async (label: string, work: () => unknown) => {
    const started = performance.now();
    await work();
    lines.push({ label, value: `${(performance.now() - started).toFixed(1)} ms` });
  };
  await time('parseNote, 300 KB line of [[', () => parseNote('x.md', '[['.repeat(150_000)));
  await time('parseNote, 300 KB line of [](a "', () => parseNote('x.md', '[](a "'.repeat(50_000)));
  await time('TOML locator, arrays nested 2 000 deep', () => new TomlLocator('a = ' + '['.repeat(2000) + ']'.repeat(2000)));
  await time('TOML locator, dotted key of 50 000 segments', () => new TomlLocator('a' + '.a'.repeat(50_000) + ' = 1'));
  await time('TOML locator, 600 KB of 64-level keys', () => new TomlLocator(Array.from({ length: 2000 }, (_, i) => Array.from({ length: 63 }, (_, j) => `k${j}`).join('.') + `.v${i} = 1`).join('\n')));
  await time('line reader, 100 MB with no newline (limit 64 MB)', () => {
    const reader = new JsonRpcLineReader(64 * 1024 * 1024);
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    for (let i = 0; i < 1600; i++) reader.push(chunk);
  });
  const kiln = mkdtempSync(join(tmpdir(), 'hearth-bench-regex-'));
  try {
    writeFileSync(join(kiln, 'evil.md'), `# Evil\n${'a'.repeat(20_000)}b\n`);
    await time('text search /(a+)+$/ on a 20 000-char line', () => textSearch(kiln, { exclude: [], max_file_size_kb: 10_000 }, '/(a+)+$/', 10));
  } finally {
    rmSync(kiln, { recursive: true, force: true });
  }
  lines.push(...(await runJournalBench()));
  return lines;
}

