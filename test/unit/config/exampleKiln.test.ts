// The example kiln (test/fixtures/example-kiln, opened by `npm start`) is documentation: its
// commented config shows every section and must stay valid as the schema evolves, and its notes
// must stay a real, linked kiln.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { parse } from 'smol-toml';
import { loadConfig } from '../../../src/core/config/load';
import { globalConfigDir } from '../../../src/core/config/locations';
import { parseNote } from '../../../src/core/kiln/note';

const KILN = resolve('test/fixtures/example-kiln');
const CONFIG = join(KILN, '.hearth', 'config.toml');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === '.hearth') return [];
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

test('the example config loads with zero problems and shows every section', async () => {
  const { config, problems, sources, files } = await loadConfig({ trusted: true, workspaceRoot: KILN, globalConfigPath: join(KILN, 'no-global-config.toml'), env: { HOME: '/home/example' } });
  assert.deepEqual(problems, []);
  assert.equal(files.workspace, CONFIG);
  const raw = parse(readFileSync(CONFIG, 'utf8')) as Record<string, unknown>;
  for (const section of ['kiln_path', 'agent_directories', 'chat', 'context', 'cli', 'acp', 'mcp', 'processing', 'logging']) {
    assert.ok(section in raw, `${section} missing from the example config`);
  }
  // (#29) No provider or embedder of its own (its comments show how): the user's global config applies.
  assert.ok(!('llm' in raw) && !('embedding' in raw), 'the example pins no [llm] or [embedding]');
  const text = readFileSync(CONFIG, 'utf8');
  for (const shown of ['# [llm]', '# [llm.providers.local]', '# [llm.providers.cloud]', '# [embedding]']) assert.ok(text.includes(shown), `${shown} not shown as a comment`);
  assert.equal(config.kiln_path, KILN);
  assert.notEqual(sources['llm.default'], 'workspace');
  assert.notEqual(sources['embedding.provider'], 'workspace');
  assert.equal(config.mcp.servers[0].prefix, 'fs_');
  assert.equal(config.mcp.servers[0].transport.type, 'stdio');
  assert.equal(config.acp.agents['gardener-claude'].extends, 'claude-code');
  assert.equal(config.processing.store, 'flat');
  // Values really come from the file, not from defaults that happen to match.
  assert.equal(sources['chat.temperature'], 'workspace');
  assert.equal(sources['logging.level'], 'workspace');
});

test('(#29) the example kiln uses the provider and embedder of the global config HEARTH_CONFIG_DIR names (npm start sets it)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-global-'));
  try {
    writeFileSync(join(dir, 'config.toml'), '[llm]\ndefault = "mine"\n[llm.providers.mine]\ntype = "custom"\nendpoint = "http://127.0.0.1:9/v1"\ndefault_model = "m"\n[embedding]\nprovider = "cloud_a"\nmodel = "text-embedding-3-small"\n');
    const env = { HOME: '/home/example', XDG_CONFIG_HOME: '/isolated/xdg-config', HEARTH_CONFIG_DIR: dir };
    const { config, problems, sources, files } = await loadConfig({ trusted: true, workspaceRoot: KILN, env });
    assert.deepEqual(problems, []);
    assert.equal(files.global, join(dir, 'config.toml'));
    assert.equal(config.llm.default, 'mine');
    assert.equal(sources['llm.default'], 'global');
    assert.equal(config.embedding.provider, 'cloud_a');
    assert.equal(globalConfigDir({ HEARTH_CONFIG_DIR: 'relative/dir', XDG_CONFIG_HOME: '/x' }, 'linux'), '/x/hearth', 'a relative HEARTH_CONFIG_DIR is ignored');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the example kiln is a real kiln: nested notes with frontmatter, tags, headings, and no broken wikilinks', () => {
  const notes = markdownFiles(KILN).map((file) => parseNote(relative(KILN, file), readFileSync(file, 'utf8')));
  assert.ok(notes.length >= 8, `only ${notes.length} notes`);
  assert.ok(notes.some((n) => n.path.split('/').length >= 3), 'no nested folder two levels deep');
  const titles = new Set(notes.map((n) => basename(n.path, '.md')));
  for (const note of notes) {
    assert.deepEqual(note.problems, [], note.path);
    if (note.path === 'AGENTS.md') continue;
    assert.ok(Object.keys(note.frontmatter).length > 0, `${note.path} has no frontmatter`);
    assert.ok(note.tags.length > 0, `${note.path} has no tags`);
    assert.ok(note.headings.length >= 2, `${note.path} has fewer than two headings`);
    for (const link of note.links.filter((l) => l.kind === 'wiki')) {
      assert.ok(titles.has(link.target), `${note.path}:${link.line} links to a missing note [[${link.target}]]`);
    }
  }
  assert.ok(notes.reduce((n, note) => n + note.links.length, 0) >= 30, 'the notes should link to each other');
});
