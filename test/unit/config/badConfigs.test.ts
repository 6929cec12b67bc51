/**
 * The bad-configuration corpus (test/fixtures/bad-configs/): every file states, in its first lines,
 * the problem it must produce (`# expect: line=N key=PATH code=CODE [severity=S]`) and a key that
 * must still apply despite it (`# applied: PATH=JSON`). One test per file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/load';

const CORPUS = 'test/fixtures/bad-configs';
const files = readdirSync(CORPUS).filter((name) => name.endsWith('.toml')).sort();

interface Expectation {
  line: number;
  key: string;
  code: string;
  severity?: string;
}

function expectations(text: string): { expect: Expectation[]; applied: [string, unknown][] } {
  const expect: Expectation[] = [];
  const applied: [string, unknown][] = [];
  for (const line of text.split('\n')) {
    const e = /^# expect:\s*line=(\d+)\s+key=(\S*)\s+code=(\S+)(?:\s+severity=(\S+))?/.exec(line);
    if (e) expect.push({ line: Number(e[1]), key: e[2], code: e[3], severity: e[4] });
    const a = /^# applied:\s*([^=\s]+)=(.+)$/.exec(line);
    if (a) applied.push([a[1], JSON.parse(a[2])]);
  }
  return { expect, applied };
}

/** `a.b[1].c`, `llm.providers.x.type`, `mcp.servers.length`. */
function valueAt(root: unknown, path: string): unknown {
  const segments = path.split(/\.|(?=\[)/).map((s) => (s.startsWith('[') ? Number(s.slice(1, -1)) : s));
  return segments.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], root);
}

test('the corpus holds at least 40 bad configuration files, each with an expectation', () => {
  assert.ok(files.length >= 40, `only ${files.length} files`);
  for (const name of files) assert.ok(expectations(readFileSync(join(CORPUS, name), 'latin1')).expect.length > 0, `${name} states no expectation`);
});

const scratch = mkdtempSync(join(tmpdir(), 'hearth-bad-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

for (const name of files) {
  test(`bad config ${name}`, async () => {
    const { expect, applied } = expectations(readFileSync(join(CORPUS, name), 'latin1'));
    const root = join(scratch, name);
    mkdirSync(join(root, '.hearth'), { recursive: true });
    const file = join(root, '.hearth', 'config.toml');
    copyFileSync(join(CORPUS, name), file);
    // loadConfig must resolve, never reject.
    const loaded = await loadConfig({ trusted: true, workspaceRoot: root, globalConfigPath: join(root, 'no-global.toml'), env: {} });
    const found = loaded.problems.map((p) => `${p.file === file ? '' : `${p.file}:`}${p.line}:${p.column} ${p.keyPath} ${p.code} ${p.severity}`);
    for (const e of expect) {
      const match = loaded.problems.find((p) => p.file === file && p.line === e.line && p.keyPath === e.key && p.code === e.code && (!e.severity || p.severity === e.severity));
      assert.ok(match, `expected line=${e.line} key=${e.key} code=${e.code}; got:\n  ${found.join('\n  ')}`);
      assert.ok(match.column !== undefined && match.column >= 1, 'a located problem has a column');
      assert.ok(match.message.length > 10, 'a problem has a message for the user');
    }
    for (const [path, value] of applied) {
      assert.deepEqual(valueAt(loaded.config, path), value, `${path} should still apply; problems:\n  ${found.join('\n  ')}`);
    }
  });
}
