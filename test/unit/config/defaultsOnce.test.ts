// Each default is written once (issue 14): in the schema (config/schema.ts) or, for provider
// endpoints and models, in config/providerTypes.ts. Code takes them from the resolved config or the
// constants exported there; the template's commented defaults are checked against the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { EMBEDDING_PROVIDER_DEFAULTS, LLM_PROVIDER_DEFAULTS } from '../../../src/core/config/providerTypes';
import { DEFAULT_TEMPERATURE, defaultConfig } from '../../../src/core/config/schema';
import { configTemplate } from '../../../src/core/config/template';

const SRC = join(import.meta.dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every string and number literal written in `src` (comments are not literals), with its file. */
function literals(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    // The template shows every default in its comments, on purpose; the test below checks them.
    if (file.endsWith(join('config', 'template.ts'))) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteralLike(node) || ts.isNumericLiteral(node)) out.push({ file: relative(SRC, file), text: node.text });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

test('provider defaults, the default temperature and the runner port are written once in src', () => {
  const all = literals();
  const values = new Set<string>([String(DEFAULT_TEMPERATURE)]);
  for (const d of Object.values(LLM_PROVIDER_DEFAULTS)) for (const v of [d.endpoint, d.model]) if (v) values.add(v);
  for (const d of Object.values(EMBEDDING_PROVIDER_DEFAULTS)) for (const v of [d.apiUrl, d.model]) if (v) values.add(v);
  for (const value of values) {
    const where = all.filter((l) => l.text === value).map((l) => l.file);
    assert.equal(where.length, 1, `${value} is written ${where.length} times: ${where.join(', ')}`);
  }
  // The runner's port lives in its default URL only (LOCAL_RUNNER_HOST without a port reads it from there).
  const port = all.filter((l) => l.text === '11434' || l.text.includes(':11434')).map((l) => l.file);
  assert.deepEqual(port, ['core/config/providerTypes.ts']);
});

test("the template's commented defaults are the schema's", () => {
  const defaults = defaultConfig() as unknown as Record<string, Record<string, unknown>>;
  const checked: string[] = [];
  let section = '';
  for (const line of configTemplate('global').split('\n')) {
    const header = /^#?\s*\[([a-z_]+)\]\s*$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    if (/^#?\s*\[/.exec(line)) {
      section = ''; // a sub-table or [[array]] entry: its values are examples, not defaults
      continue;
    }
    const entry = /^#?\s*([a-z_]+) = ("[^"]*"|true|false|[0-9.]+)\s*(#.*)?$/.exec(line);
    if (!entry || !section || !(section in defaults)) continue;
    const [, key, raw, comment] = entry;
    const expected = defaults[section][key];
    // Keys whose default depends on the machine or the provider say so in their comment.
    if (expected === undefined || typeof expected === 'object' || /default|machine|cores/i.test(comment ?? '')) continue;
    assert.deepEqual(JSON.parse(raw), expected, `[${section}] ${key} in the template`);
    checked.push(`${section}.${key}`);
  }
  assert.ok(checked.includes('chat.temperature') && checked.includes('processing.max_file_size_kb') && checked.includes('acp.session_timeout_minutes'), checked.join(' '));
});
