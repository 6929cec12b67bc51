import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { silentLogger } from '../../../src/core/host';
import type { KilnTool, KilnToolContext } from '../../../src/core/kiln/tools/kilnTool';
import { createKilnTools, KILN_TOOL_NAMES } from '../../../src/core/kiln/tools/kilnTools';
import { textOf, tempDir } from './helpers';

async function makeKiln(): Promise<{ root: string; outside: string }> {
  const base = await tempDir('kiln');
  const root = join(base, 'kiln');
  const outside = join(base, 'outside');
  await mkdir(join(root, 'projects', 'deep'), { recursive: true });
  await mkdir(join(root, '.hearth'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.md'), '# Secret\nkeep out\n');
  await writeFile(join(root, 'welcome.md'), '---\ntitle: Welcome\ntags: [intro, hearth]\nstatus: published\n---\n# Hello\nThe kiln fire is warm.\nSee [[projects/plan]].\n');
  await writeFile(join(root, 'projects', 'plan.md'), '---\nstatus: draft\n# a comment\n---\n# Plan\nLight the fire.\n#roadmap\n');
  await writeFile(join(root, 'projects', 'deep', 'notes.md'), 'no frontmatter here\nFire again\n');
  await writeFile(join(root, '.hearth', 'internal.md'), 'fire inside the index folder\n');
  await symlink(outside, join(root, 'escape'));
  await symlink(join(outside, 'secret.md'), join(root, 'link.md'));
  return { root, outside };
}

describe('kiln tools', () => {
  let root: string;
  let outside: string;
  let tools: Map<string, KilnTool>;
  const confirmations: string[] = [];
  let answer = true;
  const call = (name: string, args: unknown) => tools.get(name)!.call(args);
  const json = async (name: string, args: unknown) => {
    const result = await call(name, args);
    assert.ok(!result.isError, textOf(result));
    return JSON.parse(textOf(result));
  };

  before(async () => {
    ({ root, outside } = await makeKiln());
    const ctx: KilnToolContext = {
      kilnRoot: root,
      host: { log: silentLogger, confirm: async (message) => (confirmations.push(message), answer) },
      confirmDestructive: true,
    };
    tools = new Map(createKilnTools(ctx).map((tool) => [tool.name, tool]));
  });

  test('all fifteen tools, with read/write annotations and object input schemas', () => {
    assert.deepEqual([...tools.keys()], [...KILN_TOOL_NAMES]);
    for (const tool of tools.values()) {
      assert.equal(tool.definition.inputSchema.type, 'object');
      const writes = ['create_note', 'update_note', 'edit_note', 'move_note', 'delete_note'].includes(tool.name);
      assert.equal(tool.definition.annotations?.readOnlyHint, !writes, tool.name);
    }
    assert.equal(tools.get('delete_note')!.definition.annotations?.destructiveHint, true);
    assert.deepEqual(createKilnTools({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false }, { readOnly: true }).map((t) => t.name).length, 10);
  });

  test('paths outside the kiln are refused: .., absolute, symlinks out, internal folders', async () => {
    for (const path of ['../outside/secret.md', 'projects/../../outside/secret.md', join(outside, 'secret.md'), '/etc/passwd', 'escape/secret.md', 'link.md', '.hearth/internal.md', '~/x.md']) {
      const result = await call('read_note', { path });
      assert.equal(result.isError, true, path);
      assert.match(textOf(result), /not allowed/, path);
      assert.doesNotMatch(textOf(result), /keep out/);
    }
    assert.equal((await call('create_note', { path: 'escape/new.md', content: 'x' })).isError, true);
    assert.deepEqual(await readdir(outside), ['secret.md'], 'nothing written outside');
    assert.equal((await call('list_notes', { folder: '../outside' })).isError, true);
  });

  test('read_note whole and by line range; read_metadata', async () => {
    assert.match(textOf(await call('read_note', { path: 'welcome.md' })), /The kiln fire is warm/);
    assert.equal(textOf(await call('read_note', { path: 'projects/plan.md', start_line: 5, end_line: 6 })), '# Plan\nLight the fire.');
    const meta = await json('read_metadata', { path: 'welcome.md' });
    assert.equal(meta.title, 'Welcome');
    assert.deepEqual(meta.tags, ['intro', 'hearth']);
    assert.deepEqual(meta.links, ['projects/plan']);
    assert.equal(meta.frontmatter.status, 'published');
    const missing = await call('read_note', { path: 'nope.md' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /No note/);
  });

  test('arguments are validated with a clear error', async () => {
    const result = await call('read_note', { path: 42 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /Invalid arguments for read_note: path/);
    assert.match(textOf(await call('read_note', { path: 'welcome.md', start_line: 0 })), /start_line/);
  });

  test('list_notes, text_search, property_search, get_kiln_info skip excluded folders', async () => {
    const all = await json('list_notes', {});
    assert.deepEqual(all.notes, ['projects/deep/notes.md', 'projects/plan.md', 'welcome.md']);
    assert.deepEqual((await json('list_notes', { folder: 'projects', recursive: false })).notes, ['projects/plan.md']);
    const hits = await json('text_search', { query: 'FIRE' });
    assert.equal(hits.query, 'FIRE');
    assert.deepEqual(hits.results.map((m: { path: string; startLine: number; score: number }) => `${m.path}:${m.startLine}:${m.score}`), ['projects/deep/notes.md:2:1', 'projects/plan.md:6:1', 'welcome.md:7:1']);
    assert.ok(hits.results.every((m: { sections: unknown[]; snippet: string }) => Array.isArray(m.sections) && /fire/i.test(m.snippet)));
    const lines = await json('text_search', { query: 'FIRE', chunks: true });
    assert.deepEqual(lines.results.map((m: { path: string; line: number }) => `${m.path}:${m.line}`), ['projects/deep/notes.md:2', 'projects/plan.md:6', 'welcome.md:7']);
    assert.equal((await json('text_search', { query: 'fire', folder: 'projects', limit: 1 })).count, 1);
    assert.deepEqual((await json('property_search', { properties: { status: 'draft' } })).notes.map((n: { path: string }) => n.path), ['projects/plan.md']);
    assert.deepEqual((await json('property_search', { properties: { tags: 'roadmap' } })).notes.map((n: { path: string }) => n.path), ['projects/plan.md']);
    const info = await json('get_kiln_info', {});
    assert.equal(info.notes, 3);
    assert.equal(info.semantic_search, false);
  });

  test('semantic_search without an index says so; with one it returns hits', async () => {
    const result = await call('semantic_search', { query: 'warm fire' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /not available/);
    const withIndex = createKilnTools({
      kilnRoot: root,
      host: { log: silentLogger, confirm: async () => true },
      confirmDestructive: false,
      // The index's own result shape (index/searchResult.ts): the tool formats it, no second hit type.
      semanticSearch: async (query, limit, _signal, options) => [
        { path: 'welcome.md', title: 'Welcome', heading: '', startLine: 1, endLine: 3, score: 0.9, snippet: `${query}:${limit}:${options?.chunks === true}` },
      ],
    }).find((t) => t.name === 'semantic_search')!;
    const hits = JSON.parse(textOf(await withIndex.call({ query: 'warm', limit: 3 })));
    assert.deepEqual([hits.query, hits.count], ['warm', 1]);
    assert.deepEqual(hits.results[0], { path: 'welcome.md', title: 'Welcome', heading: '', startLine: 1, endLine: 3, score: 0.9, snippet: 'warm:3:false', sections: [] });
    // Passages keep the shape semantic_search always had for them: `text`, and a heading only when there is one.
    const chunks = JSON.parse(textOf(await withIndex.call({ query: 'warm', chunks: true })));
    assert.deepEqual(chunks.results[0], { path: 'welcome.md', score: 0.9, text: 'warm:10:true', startLine: 1, endLine: 3 });
    // A pasted page is refused with a clear error, not sent to the embedder.
    const huge = await withIndex.call({ query: 'x'.repeat(10_001) });
    assert.equal(huge.isError, true);
  });

  test('create_note never overwrites; update_note merges frontmatter and keeps it when only content changes; delete asks first', async () => {
    assert.equal(textOf(await call('create_note', { path: 'inbox/idea', content: '# Idea\n', frontmatter: { status: 'new' } })), 'Created inbox/idea.md');
    assert.equal(await readFile(join(root, 'inbox/idea.md'), 'utf8'), '---\nstatus: new\n---\n# Idea\n');
    const again = await call('create_note', { path: 'inbox/idea.md', content: 'other' });
    assert.equal(again.isError, true);
    assert.match(textOf(again), /already exists/);
    assert.equal(await readFile(join(root, 'inbox/idea.md'), 'utf8'), '---\nstatus: new\n---\n# Idea\n', 'untouched');

    await call('update_note', { path: 'projects/plan.md', content: '# Plan\nNew body\n' });
    assert.equal(await readFile(join(root, 'projects/plan.md'), 'utf8'), '---\nstatus: draft\n# a comment\n---\n# Plan\nNew body\n', 'frontmatter kept byte for byte');
    await call('update_note', { path: 'inbox/idea.md', frontmatter: { status: null, owner: 'me' } });
    assert.equal(await readFile(join(root, 'inbox/idea.md'), 'utf8'), '---\nowner: me\n---\n# Idea\n');
    assert.ok(confirmations.some((m) => m.includes('Overwrite')));

    answer = false;
    const declined = await call('delete_note', { path: 'inbox/idea.md' });
    assert.equal(declined.isError, true);
    assert.match(textOf(declined), /declined/);
    assert.ok(await readFile(join(root, 'inbox/idea.md'), 'utf8'));
    answer = true;
    assert.equal(textOf(await call('delete_note', { path: 'inbox/idea.md' })), 'Deleted inbox/idea.md');
    await assert.rejects(readFile(join(root, 'inbox/idea.md'), 'utf8'));
    assert.deepEqual((await readdir(join(root, 'inbox'))).filter((f) => f.endsWith('.tmp')), [], 'no temp files left');
  });
});
