// `hearth index` and `hearth search` as subprocesses of the built bin (dist/cli.js) on a kiln whose
// [embedding] is the tiny generated model in a local folder (the real transformers.js in a worker).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tinyModelDir } from '../index/tinyModel';

const BIN = resolve('dist/cli.js');
const skip = !existsSync(BIN) && 'run npm run build first';

function kiln(notes: Record<string, string>, extraConfig = ''): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-cli-kiln-'));
  mkdirSync(join(root, '.hearth'));
  writeFileSync(join(root, '.hearth', 'config.toml'), `[embedding]\nprovider = "local_cpu"\nmodel = ${JSON.stringify(tinyModelDir())}\n${extraConfig}`);
  for (const [path, text] of Object.entries(notes)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function hearth(root: string, ...args: string[]) {
  const env = { ...process.env, XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1' };
  const result = spawnSync(process.execPath, [BIN, ...args, '--workspace', root], { encoding: 'utf8', env, timeout: 60_000, input: '' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const NOTES = {
  'garden.md': '# Plants\nTomatoes and basil grow by the garden wall.\n\n## Watering\nWater the tomatoes every morning in summer.\n',
  'kitchen/bread.md': '---\ntitle: Bread\n---\nFlour, water, salt and yeast make a simple bread.\n',
  'kitchen/coffee.md': '# Coffee\nGrind the beans just before brewing the coffee.\n',
  'archive/old.md': '# Old\nArchived tomatoes.\n',
};

test('hearth index: report, no-op rerun, --json, --force and --clear asking first', { skip }, () => {
  const root = kiln(NOTES, '[processing]\nexclude = ["archive/**"]\n');
  try {
    const first = hearth(root, 'index');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^notes\s+3$/m);
    assert.match(first.stdout, /^chunks\s+4$/m);
    assert.match(first.stdout, /^embedded\s+4 chunks of 3 notes/m);
    assert.match(first.stdout, /^seconds\s+\d+\.\d\d$/m);
    assert.match(first.stderr, /Indexing the kiln/);

    const again = hearth(root, 'index', '--json');
    assert.equal(again.code, 0, again.stderr);
    const report = JSON.parse(again.stdout);
    assert.deepEqual([report.notes, report.chunks, report.embedded, report.unchanged], [3, 4, 0, 3]);

    // Destructive: refused without a terminal or --yes, done with --yes.
    const refused = hearth(root, 'index', '--clear');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /pass --yes/);
    assert.equal(JSON.parse(hearth(root, 'index', '--json').stdout).embedded, 0, 'nothing was cleared');
    assert.equal(hearth(root, 'index', '--force').code, 1);
    const forced = hearth(root, 'index', '--force', '--yes', '--json');
    assert.equal(JSON.parse(forced.stdout).embedded, 4);
    const cleared = hearth(root, 'index', '--clear', '--yes');
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.equal(JSON.parse(hearth(root, 'index', '--json').stdout).embedded, 4, 'everything embedded again after --clear');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('hearth search: --json shape, modes, --limit, usage errors exit 2', { skip }, () => {
  const root = kiln(NOTES, '[processing]\nexclude = ["archive/**"]\n');
  try {
    // No index yet: search builds it first.
    const hybrid = hearth(root, 'search', 'water the tomatoes every morning', '--json');
    assert.equal(hybrid.code, 0, hybrid.stderr);
    const hits = JSON.parse(hybrid.stdout);
    assert.deepEqual(Object.keys(hits[0]).sort(), ['endLine', 'heading', 'path', 'score', 'sections', 'snippet', 'startLine', 'title']);
    assert.deepEqual([hits[0].path, hits[0].title, hits[0].heading, hits[0].startLine, hits[0].endLine], ['garden.md', 'Plants', 'Plants > Watering', 4, 5]);
    assert.deepEqual(hits[0].sections.map((s: { heading: string; startLine: number }) => [s.heading, s.startLine]), [['Plants', 1]], 'the other matching section of the note');
    assert.equal(new Set(hits.map((h: { path: string }) => h.path)).size, hits.length, 'one result per note');
    // --chunks: the per-chunk shape, a note may come back more than once.
    const chunks = JSON.parse(hearth(root, 'search', 'water the tomatoes every morning', '--chunks', '--json').stdout);
    assert.deepEqual(Object.keys(chunks[0]).sort(), ['endLine', 'heading', 'path', 'score', 'snippet', 'startLine', 'title']);
    assert.deepEqual(chunks.slice(0, 2).map((h: { path: string; startLine: number }) => `${h.path}:${h.startLine}`), ['garden.md:4', 'garden.md:1']);
    assert.ok(!hits.some((h: { path: string }) => h.path.startsWith('archive/')));

    const semantic = JSON.parse(hearth(root, 'search', 'grind the beans', '--mode', 'semantic', '--limit', '2', '--json').stdout);
    assert.equal(semantic.length, 2);
    assert.equal(semantic[0].path, 'kitchen/coffee.md');

    const text = JSON.parse(hearth(root, 'search', 'tomatoes', '--mode', 'text', '--json').stdout);
    assert.deepEqual(text.map((h: { path: string; startLine: number }) => `${h.path}:${h.startLine}`), ['garden.md:2']);
    assert.deepEqual(text[0].sections.map((s: { startLine: number }) => s.startLine), [5]);
    const textChunks = JSON.parse(hearth(root, 'search', 'tomatoes', '--mode', 'text', '--chunks', '--json').stdout);
    assert.deepEqual(textChunks.map((h: { path: string; startLine: number }) => `${h.path}:${h.startLine}`), ['garden.md:2', 'garden.md:5']);

    const property = JSON.parse(hearth(root, 'search', 'title=bread', '--mode', 'property', '--json').stdout);
    assert.deepEqual(property.map((h: { path: string }) => h.path), ['kitchen/bread.md']);

    const human = hearth(root, 'search', 'yeast', '--mode', 'text');
    assert.match(human.stdout, /^kitchen\/bread\.md:4-4 {2}Bread/m);

    assert.equal(hearth(root, 'search').code, 2);
    assert.equal(hearth(root, 'search', 'x', '--mode', 'fuzzy').code, 2);
    assert.equal(hearth(root, 'search', 'x', '--limit', '0').code, 2);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('hearth index killed mid-run leaves a readable index; the next run finishes the rest', { skip }, async () => {
  const notes: Record<string, string> = {};
  for (let i = 0; i < 400; i++) notes[`n/${String(i).padStart(3, '0')}.md`] = `# Note ${i}\n${'word '.repeat(40)} topic${i % 13}\n\n## Part\nmore text ${i}\n`;
  const root = kiln(notes);
  try {
    const env = { ...process.env, XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1' };
    const child = spawn(process.execPath, [BIN, 'index', '--workspace', root], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Kill it hard as soon as it reports progress (some groups embedded, more to come).
    await new Promise<void>((done) => {
      child.stderr.on('data', (data: Buffer) => {
        if (/\d+ of 400 notes/.test(data.toString())) child.kill('SIGKILL');
      });
      child.on('exit', () => done());
    });
    assert.equal(child.signalCode, 'SIGKILL', 'killed before it finished');
    const after = hearth(root, 'index', '--json');
    assert.equal(after.code, 0, after.stderr);
    const report = JSON.parse(after.stdout);
    assert.equal(report.notes, 400);
    assert.equal(report.embeddedNotes + report.unchanged, 400);
    assert.equal(report.rebuilt, undefined, 'the killed run left a consistent index');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('hearth gateway (stdio): the semantic_search kiln tool answers from the index, with paths and lines', { skip }, async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const root = kiln(NOTES, '[processing]\nexclude = ["archive/**"]\n');
  const client = new Client({ name: 'semantic-test', version: '1' });
  try {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'gateway', '--workspace', root], env: { ...(process.env as Record<string, string>), XDG_CONFIG_HOME: join(root, '.xdg'), XDG_CACHE_HOME: join(root, '.xdg'), HEARTH_TRUST: '1' }, stderr: 'ignore' }),
    );
    const result = (await client.callTool({ name: 'semantic_search', arguments: { query: 'grind the beans before brewing', limit: 2 } })) as { content: { type: string; text: string }[]; isError?: boolean };
    assert.ok(!result.isError, result.content[0]?.text);
    const body = JSON.parse(result.content[0].text) as { query: string; count: number; results: { path: string; title: string; startLine: number; endLine: number; snippet: string; score: number; sections: unknown[] }[] };
    assert.equal(body.query, 'grind the beans before brewing');
    assert.equal(body.count, 2);
    assert.equal(body.results[0].path, 'kitchen/coffee.md');
    assert.equal(body.results[0].title, 'Coffee');
    assert.deepEqual([body.results[0].startLine, body.results[0].endLine], [1, 2]);
    assert.match(body.results[0].snippet, /Grind the beans/);
    assert.ok(body.results[0].score > 0 && body.results[0].score <= 1);
    assert.ok(Array.isArray(body.results[0].sections));
    assert.notEqual(body.results[0].path, body.results[1].path, 'one result per note');
    // chunks: true keeps the per-passage shape.
    const chunks = (await client.callTool({ name: 'semantic_search', arguments: { query: 'water the tomatoes', chunks: true } })) as { content: { type: string; text: string }[] };
    const passages = JSON.parse(chunks.content[0].text) as { results: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(passages.results[0]).sort(), ['endLine', 'heading', 'path', 'score', 'startLine', 'text']);
    assert.deepEqual(passages.results.slice(0, 2).map((r) => r.path), ['garden.md', 'garden.md'], 'both garden sections, as passages');
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
});
