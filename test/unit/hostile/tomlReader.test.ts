/**
 * The config reader's own findings against toml-test (third review): invalid UTF-8 was decoded to
 * U+FFFD and parsed, a doubled byte order mark was stripped twice, a valid 64-bit integer made the
 * parser refuse its line, and a key written with escapes was located under the wrong name (so a
 * problem on it pointed at its table). Each replayed through the real loader.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load';
import { decodeStrictUtf8, firstInvalidByte } from '../../../src/core/config/strictUtf8';

async function loadWorkspace(bytes: string | Uint8Array) {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-toml-reader-'));
  try {
    mkdirSync(join(dir, '.hearth'));
    const file = join(dir, '.hearth', 'config.toml');
    writeFileSync(file, bytes);
    return { file, ...(await loadConfig({ trusted: true, workspaceRoot: dir, globalConfigPath: join(dir, 'none.toml'), env: {} })) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('an invalid UTF-8 byte is a located syntax error, and none of the file applies', async () => {
  // Line 3, after "é" (two bytes) and four more characters: the bad byte is character 7.
  const bytes = Buffer.concat([Buffer.from('[chat]\ntemperature = 0.2\n# é abc'), Buffer.from([0xff]), Buffer.from(' tail\n')]);
  const { problems, config } = await loadWorkspace(bytes);
  const error = problems.find((p) => p.severity === 'error');
  assert.equal(error?.code, 'config.toml_syntax');
  assert.deepEqual([error?.line, error?.column], [3, 8]);
  assert.match(error?.message ?? '', /not valid UTF-8 \(byte 0xff at line 3, column 8/);
  assert.equal(config.chat.temperature, 0.7, 'the file is not read as a guess');
});

test('ill-formed sequences are found where they start: overlong, surrogate, past U+10FFFF, truncated', () => {
  const at = (...bytes: number[]) => firstInvalidByte(Uint8Array.from(bytes));
  assert.equal(at(0x61, 0xc0, 0xaf), 1, 'overlong /');
  assert.equal(at(0x61, 0x62, 0xed, 0xa0, 0x80), 2, 'U+D800 encoded');
  assert.equal(at(0xf4, 0x90, 0x80, 0x80), 0, 'past U+10FFFF');
  assert.equal(at(0x61, 0xe2, 0x82), 1, 'truncated at the end');
  assert.equal(at(0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x94, 0xa5), 7, 'valid € and 🔥');
  const bad = decodeStrictUtf8(Uint8Array.from([0x61, 0x0a, 0xf0, 0x9f, 0x94, 0xa5, 0x80]));
  // Columns count UTF-16 code units, as the editor's positions do: 🔥 takes two.
  assert.deepEqual(bad.ok ? undefined : [bad.line, bad.column, bad.byte], [2, 3, 0x80]);
});

test('exactly one byte order mark is dropped; a second is an error at the start', async () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const one = await loadWorkspace(Buffer.concat([bom, Buffer.from('[chat]\ntemperature = 0.2\n')]));
  assert.deepEqual(one.problems, []);
  assert.equal(one.config.chat.temperature, 0.2);
  const two = await loadWorkspace(Buffer.concat([bom, bom, Buffer.from('[chat]\ntemperature = 0.2\n')]));
  const error = two.problems.find((p) => p.severity === 'error');
  assert.equal(error?.code, 'config.toml_syntax');
  assert.deepEqual([error?.line, error?.column], [1, 1]);
  assert.equal(two.config.chat.temperature, 0.7);
});

test('a 64-bit integer is read exactly: the file is valid TOML, and a setting given one is refused by key and line, naming it', async () => {
  const { problems, config } = await loadWorkspace(
    '[chat]\ntemperature = 0.2\nmax_tokens = 9223372036854775807\n[processing]\nexclude = ["a", -9223372036854775808]\n[llm.providers.x]\ntype = "ollama"\nseed = 9223372036854775807\n',
  );
  assert.ok(!problems.some((p) => p.code === 'config.toml_syntax' || p.code === 'config.internal'), JSON.stringify(problems));
  const tokens = problems.find((p) => p.keyPath === 'chat.max_tokens');
  assert.equal(tokens?.code, 'config.invalid_value');
  assert.equal(tokens?.line, 3);
  assert.match(tokens?.message ?? '', /9223372036854775807, beyond the largest Hearth reads/);
  const exclude = problems.find((p) => p.keyPath === 'processing.exclude');
  assert.match(exclude?.message ?? '', /-9223372036854775808/);
  assert.equal(problems.find((p) => p.keyPath === 'llm.providers.x.seed')?.code, 'config.unknown_key');
  assert.equal(config.chat.temperature, 0.2, 'the rest of the file applies');
});

test('a key written with escapes is located under its real name, not at its table', async () => {
  const { problems } = await loadWorkspace('[chat]\nmodel = "m"\n"temp\\u0065rature" = 9\n"max\\u005Ftokens" = "lots"\n');
  const temperature = problems.find((p) => p.keyPath === 'chat.temperature');
  const tokens = problems.find((p) => p.keyPath === 'chat.max_tokens');
  assert.deepEqual([temperature?.line, temperature?.column], [3, 1]);
  assert.deepEqual([tokens?.line, tokens?.column], [4, 1]);
});
