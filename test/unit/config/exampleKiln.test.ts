// The example kiln (test/fixtures/example-kiln, opened by `npm start`) is documentation: its
// commented config shows every section and must stay valid as the schema evolves, and its notes
// must stay a real, linked kiln.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parse } from 'smol-toml';
import { loadConfig } from '../../../src/core/config/load';
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
  for (const section of ['kiln_path', 'agent_directories', 'chat', 'llm', 'embedding', 'context', 'cli', 'acp', 'mcp', 'processing', 'logging']) {
    assert.ok(section in raw, `${section} missing from the example config`);
  }
  assert.equal(config.kiln_path, KILN);
  assert.equal(config.llm.default, 'local');
  assert.deepEqual(Object.keys(config.llm.providers).sort(), ['claude', 'cloud', 'local']);
  assert.equal(config.llm.providers.cloud.type, 'cloud_a');
  assert.equal(config.mcp.servers[0].prefix, 'fs_');
  assert.equal(config.mcp.servers[0].transport.type, 'stdio');
  assert.equal(config.acp.agents['gardener-claude'].extends, 'claude-code');
  assert.equal(config.processing.store, 'flat');
  // Values really come from the file, not from defaults that happen to match.
  assert.equal(sources['chat.temperature'], 'workspace');
  assert.equal(sources['llm.providers.local.default_model'], 'workspace');
  assert.equal(sources['logging.level'], 'workspace');
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
