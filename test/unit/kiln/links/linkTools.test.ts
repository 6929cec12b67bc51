// The link tools through createKilnTools, as the gateway and every agent call them: get_links,
// related_notes, unlinked_mentions, edit_note (exact spans, CRLF, BOM) and move_note (links
// rewritten, one journaled turn, undone byte for byte).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../../src/core/host';
import { openChangeJournal } from '../../../../src/core/changes/changeJournal';
import { applyUndo, newestTurn, planUndo } from '../../../../src/core/changes/undoChanges';
import { bindKilnContext, createKilnTools } from '../../../../src/core/kiln/tools/kilnTools';
import { linkMention } from '../../../../src/core/kiln/tools/mentionEdit';
import type { KilnTool, KilnToolContext, SemanticSearchFn } from '../../../../src/core/kiln/tools/kilnTool';
import type { SearchResult } from '../../../../src/core/index/search/searchResult';
import { makeKiln, removeKiln } from '../../index/kilnIndexHelpers';

const KILN = {
  'Home.md': '# Home\nSee [[Watering]], [[Watering#Schedule|when]] and [the page](Watering.md).\nWatering is daily.\n',
  'Watering.md': '# Watering\n## Schedule\nMornings. Back [[Home]].\n',
  'garden/Beds.md': '# Beds\nRaised beds need [[watering]] and [w](../Watering.md#schedule).\n',
  'crlf.md': '\uFEFF# CRLF\r\nline one\r\nline two\r\nline two\r\n',
};

function toolsFor(root: string, semanticSearch?: SemanticSearchFn): Map<string, KilnTool> {
  const { journal } = openChangeJournal(root, { keep_days: 30, max_mb: 100 }, silentLogger);
  const ctx: KilnToolContext = { kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, journal, semanticSearch };
  return new Map(createKilnTools(ctx).map((tool) => [tool.name, tool]));
}

async function call(tools: Map<string, KilnTool>, name: string, args: unknown) {
  const result = await tools.get(name)!.call(args);
  const text = (result.content[0] as { text: string }).text;
  return { error: result.isError === true, text, json: result.isError ? undefined : (result.structuredContent as Record<string, any>) };
}

test('get_links: outgoing, backlinks with context, unresolved; a missing note is a clear error', async () => {
  const root = makeKiln({ ...KILN, 'Lost.md': '[[Nowhere]] [[Home]]' });
  try {
    const tools = toolsFor(root);
    const { json } = await call(tools, 'get_links', { path: 'Watering.md' });
    assert.deepEqual(json!.outgoing.map((l: any) => l.path), ['Home.md']);
    assert.deepEqual(json!.backlinks.map((b: any) => [b.source, b.line]), [['Home.md', 2], ['Home.md', 2], ['Home.md', 2], ['garden/Beds.md', 2], ['garden/Beds.md', 2]]);
    assert.equal(json!.backlinks[0].context, 'See [[Watering]], [[Watering#Schedule|when]] and [the page](Watering.md).');
    const lost = await call(tools, 'get_links', { path: 'Lost' });
    assert.equal(lost.error, true, 'the tools take paths as read_note does');
    const lostMd = await call(tools, 'get_links', { path: 'Lost.md' });
    assert.deepEqual(lostMd.json!.unresolved.map((l: any) => l.target), ['Nowhere']);
    const escape = await call(tools, 'get_links', { path: '../etc/passwd.md' });
    assert.equal(escape.error, true);
    assert.match(escape.text, /not allowed/);
  } finally {
    removeKiln(root);
  }
});

test('unlinked_mentions lists plain-text mentions, not links', async () => {
  const root = makeKiln(KILN);
  try {
    const { json } = await call(toolsFor(root), 'unlinked_mentions', { path: 'Watering.md' });
    assert.deepEqual(json!.mentions.map((m: any) => [m.source, m.line, m.text]), [['Home.md', 3, 'Watering']]);
  } finally {
    removeKiln(root);
  }
});

test('related_notes: by path (itself left out, linked flagged) or by text; without an index, a clear error', async () => {
  const root = makeKiln(KILN);
  try {
    const asked: string[] = [];
    const hit = (path: string, score: number): SearchResult => ({ path, title: path, heading: '', startLine: 1, endLine: 2, score, snippet: 's' });
    const search: SemanticSearchFn = async (query) => (asked.push(query), [hit('Watering.md', 1), hit('Home.md', 0.9), hit('garden/Beds.md', 0.5)]);
    const tools = toolsFor(root, search);
    const byPath = await call(tools, 'related_notes', { path: 'Watering.md', limit: 5 });
    assert.deepEqual(byPath.json!.results.map((r: any) => [r.path, r.linked]), [['Home.md', true], ['garden/Beds.md', false]]);
    assert.match(asked[0], /^Watering\n# Watering/);
    const byText = await call(tools, 'related_notes', { text: 'raised beds', limit: 1 });
    assert.deepEqual(byText.json!.results.map((r: any) => r.path), ['Watering.md']);
    assert.equal((await call(tools, 'related_notes', { path: 'Home.md', text: 'x' })).error, true);
    const none = await call(toolsFor(root), 'related_notes', { path: 'Home.md' });
    assert.equal(none.error, true);
    assert.match(none.text, /index/);
  } finally {
    removeKiln(root);
  }
});

test('edit_note: one match edits, zero or two change nothing and say where; CRLF and BOM kept', async () => {
  const root = makeKiln(KILN);
  try {
    const tools = toolsFor(root);
    assert.equal((await call(tools, 'edit_note', { path: 'Watering.md', edits: [{ old: 'Mornings.', new: 'Evenings.' }] })).error, false);
    assert.equal(readFileSync(join(root, 'Watering.md'), 'utf8'), '# Watering\n## Schedule\nEvenings. Back [[Home]].\n');
    const zero = await call(tools, 'edit_note', { path: 'Watering.md', edits: [{ old: 'Noon', new: 'x' }] });
    assert.equal(zero.error, true);
    assert.match(zero.text, /not found/);
    const before = readFileSync(join(root, 'crlf.md'));
    const two = await call(tools, 'edit_note', { path: 'crlf.md', edits: [{ old: 'line one', new: 'first' }, { old: 'line two', new: 'x' }] });
    assert.equal(two.error, true);
    assert.match(two.text, /occurs 2 times[\s\S]*line 3: line two[\s\S]*line 4: line two/);
    assert.deepEqual(readFileSync(join(root, 'crlf.md')), before, 'nothing changed when one edit fails');
    assert.equal((await call(tools, 'edit_note', { path: 'crlf.md', edits: [{ old: 'line one\nline two', new: 'first\nsecond' }] })).error, false);
    assert.equal(readFileSync(join(root, 'crlf.md'), 'utf8'), '\uFEFF# CRLF\r\nfirst\r\nsecond\r\nline two\r\n');
  } finally {
    removeKiln(root);
  }
});

test('move_note rewrites every link to the note in one turn; undo restores every file byte for byte', async () => {
  const root = makeKiln(KILN);
  try {
    const tools = toolsFor(root);
    const snapshot = Object.fromEntries(Object.keys(KILN).map((p) => [p, readFileSync(join(root, p))]));
    const moved = await call(tools, 'move_note', { from: 'Watering.md', to: 'garden/Irrigation' });
    assert.equal(moved.error, false, moved.text);
    assert.match(moved.text, /Moved Watering.md to garden\/Irrigation.md; updated 5 links in 2 notes/);
    assert.equal(existsSync(join(root, 'Watering.md')), false);
    assert.equal(readFileSync(join(root, 'Home.md'), 'utf8'), '# Home\nSee [[Irrigation]], [[Irrigation#Schedule|when]] and [the page](garden/Irrigation.md).\nWatering is daily.\n');
    assert.equal(readFileSync(join(root, 'garden/Beds.md'), 'utf8'), '# Beds\nRaised beds need [[Irrigation]] and [w](Irrigation.md#schedule).\n');
    assert.equal(readFileSync(join(root, 'garden/Irrigation.md'), 'utf8'), KILN['Watering.md']);
    const links = await call(tools, 'get_links', { path: 'garden/Irrigation.md' });
    assert.equal(links.json!.backlinks.length, 5);

    const { journal, files } = openChangeJournal(root, { keep_days: 30, max_mb: 100 }, silentLogger);
    const turn = newestTurn(await journal.list());
    assert.equal(turn.length, 4, 'create, two link updates and the delete are one turn');
    await applyUndo(journal, files, await planUndo(journal, files, turn));
    for (const [path, bytes] of Object.entries(snapshot)) assert.deepEqual(readFileSync(join(root, path)), bytes, path);
    assert.equal(existsSync(join(root, 'garden/Irrigation.md')), false);
  } finally {
    removeKiln(root);
  }
});

test('move_note refuses an existing target and paths outside the kiln, changing nothing', async () => {
  const root = makeKiln(KILN);
  try {
    const tools = toolsFor(root);
    const taken = await call(tools, 'move_note', { from: 'Watering.md', to: 'Home.md' });
    assert.equal(taken.error, true);
    assert.match(taken.text, /already exists/);
    assert.equal((await call(tools, 'move_note', { from: 'Watering.md', to: '../out.md' })).error, true);
    assert.equal(readFileSync(join(root, 'Home.md'), 'utf8'), KILN['Home.md']);
    assert.ok(existsSync(join(root, 'Watering.md')));
  } finally {
    removeKiln(root);
  }
});

test('linkMention turns a mention into a wikilink through the journal; undo restores the note; a moved mention is refused', async () => {
  const root = makeKiln({ 'Compost.md': '# Compost\n', 'Home.md': 'We compost every week.\r\n' });
  try {
    const { journal, files } = openChangeJournal(root, { keep_days: 30, max_mb: 100 }, silentLogger);
    const ctx = bindKilnContext({ kilnRoot: root, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: false, journal });
    const before = readFileSync(join(root, 'Home.md'));
    const [mention] = await ctx.links.unlinkedMentions('Compost.md');
    assert.equal(await linkMention(ctx, 'Compost.md', mention, { client: 'vscode' }), '[[Compost|compost]]');
    assert.equal(readFileSync(join(root, 'Home.md'), 'utf8'), 'We [[Compost|compost]] every week.\r\n');
    await assert.rejects(linkMention(ctx, 'Compost.md', mention), /no longer at line 1/);
    await applyUndo(journal, files, await planUndo(journal, files, newestTurn(await journal.list())));
    assert.deepEqual(readFileSync(join(root, 'Home.md')), before);
  } finally {
    removeKiln(root);
  }
});
