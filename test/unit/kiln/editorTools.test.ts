// The kiln tools as VS Code language model tools: package.json's contributions match the tools'
// own definitions; a call goes through the same review and journal as the internal agents' (one
// turn per call, client `vscode`, undone byte for byte); writing tools always ask first, showing
// model-given text only inside code spans; hostile arguments (`..`, absolute paths, a link out,
// huge values) are refused and nothing outside the kiln is read or written.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultConfig } from '../../../src/core/config/schema';
import type { ChangeProposal, ChangeReviewer } from '../../../src/core/changes/changeReview';
import { silentLogger } from '../../../src/core/host';
import { callFromEditor, describeInvocation, editorToolContribution, editorToolName, kilnToolOf, MAX_EDITOR_TOOL_ARGS_CHARS } from '../../../src/core/kiln/tools/editorTools';
import { kilnToolContext } from '../../../src/core/kiln/tools/kilnToolContext';
import { createKilnTools } from '../../../src/core/kiln/tools/kilnTools';
import { confinedKilnFiles } from '../../../src/core/changes/kilnFileAccess';
import { applyUndo, newestTurn, planUndo } from '../../../src/core/changes/undoChanges';
import type { KilnTool } from '../../../src/core/kiln/tools/kilnTool';

let root: string;
let outside: string;
const reviewed: ChangeProposal[] = [];
let tools: KilnTool[];
let context: ReturnType<typeof kilnToolContext>;
const tool = (name: string) => tools.find((t) => t.name === name)!;
const ORIGINAL = '# Bread\r\n\r\nFlour, water, salt — and yeast. ✓\n';

before(() => {
  root = mkdtempSync(join(tmpdir(), 'hearth-editor-tools-'));
  outside = mkdtempSync(join(tmpdir(), 'hearth-editor-outside-'));
  writeFileSync(join(root, 'Bread.md'), ORIGINAL);
  writeFileSync(join(outside, 'secret.md'), 'SECRET\n');
  symlinkSync(join(outside, 'secret.md'), join(root, 'link.md'));
  const reviewer: ChangeReviewer = { review: async (proposal) => (reviewed.push(proposal), { accepted: true }) };
  context = kilnToolContext(defaultConfig(), { log: silentLogger, confirm: async () => true }, root, undefined, reviewer);
  tools = createKilnTools(context);
});
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('contributions', () => {
  test('every languageModelTools entry in package.json is hearth_<tool> with the kiln tool\'s own schema and description', () => {
    const manifest = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string }[] } };
    const entries = manifest.contributes.languageModelTools;
    assert.ok(entries.length >= 10);
    for (const entry of entries) {
      const name = kilnToolOf(entry.name);
      const kilnTool = tools.find((t) => t.name === name);
      assert.ok(kilnTool, `${entry.name} names no kiln tool`);
      assert.deepEqual(entry, editorToolContribution(kilnTool), `${entry.name} differs from its kiln tool; the entry should be ${JSON.stringify(editorToolContribution(kilnTool))}`);
    }
    for (const name of ['read_note', 'list_notes', 'text_search', 'semantic_search', 'create_note', 'update_note', 'delete_note']) {
      assert.ok(entries.some((e) => e.name === editorToolName(name)), `${name} is contributed`);
    }
  });

  test('names: hearth_ prefix both ways; a name without it is no kiln tool', () => {
    assert.equal(editorToolName('read_note'), 'hearth_read_note');
    assert.equal(kilnToolOf('hearth_read_note'), 'read_note');
    assert.equal(kilnToolOf('read_note'), undefined);
    assert.equal(kilnToolOf('hearth_'), undefined);
  });
});

describe('invocation', () => {
  test('read tools run without asking; writing tools ask, naming the path in a code span and sizes instead of content', () => {
    assert.deepEqual(describeInvocation(tool('read_note'), { path: 'Bread.md' }), { invocation: 'Read note `Bread.md`' });
    const ask = describeInvocation(tool('update_note'), { path: 'a`b\n# injected.md', content: 'x'.repeat(1234) });
    assert.ok(ask.confirm);
    assert.match(ask.confirm.message, /`a b # injected\.md`/);
    assert.match(ask.confirm.message, /content: 1,234 characters/);
    assert.doesNotMatch(ask.confirm.message, /xxxx/);
    assert.match(ask.confirm.message, /Undo Last Agent Change/);
    assert.ok(describeInvocation(tool('delete_note'), { path: 'Bread.md' }).confirm);
    assert.match(describeInvocation(tool('move_note'), { from: 'Bread.md', to: 'baking/Bread.md' }).confirm!.message, /- to: `baking\/Bread\.md`/);
  });

  test('a write from the editor is reviewed and journaled as one turn of client vscode, and undo restores the note byte for byte', async () => {
    const result = await callFromEditor(tool('update_note'), { path: 'Bread.md', content: '# Bread\n\nSourdough only.\n' }, undefined, { turn: 'lm-test-1', client: 'vscode' });
    assert.equal(result.isError, false, result.text);
    assert.equal(readFileSync(join(root, 'Bread.md'), 'utf8'), '# Bread\n\nSourdough only.\n');
    assert.deepEqual(reviewed.map((p) => [p.path, p.actor.client, p.actor.turn, p.actor.tool]), [['Bread.md', 'vscode', 'lm-test-1', 'update_note']]);
    const journal = context.journal!;
    const turn = newestTurn(await journal.list());
    assert.deepEqual(turn.map((r) => [r.path, r.turn, r.client]), [['Bread.md', 'lm-test-1', 'vscode']]);
    const files = confinedKilnFiles(root);
    await applyUndo(journal, files, await planUndo(journal, files, turn));
    assert.equal(readFileSync(join(root, 'Bread.md'), 'utf8'), ORIGINAL);
  });

  test('hostile arguments: `..`, absolute paths, a link out of the kiln and huge values are refused; nothing outside is read or written', async () => {
    const origin = { turn: 'lm-hostile', client: 'vscode' };
    const calls: [string, unknown][] = [
      ['read_note', { path: '../' + outside.split('/').pop() + '/secret.md' }],
      ['read_note', { path: join(outside, 'secret.md') }],
      ['read_note', { path: 'link.md' }],
      ['create_note', { path: '../escaped.md', content: 'x' }],
      ['create_note', { path: join(outside, 'escaped.md'), content: 'x' }],
      ['update_note', { path: 'link.md', content: 'overwritten' }],
      ['delete_note', { path: '../../etc/hosts' }],
      ['read_note', { path: 'Bread.md', start_line: 1e308, end_line: -5 }],
      ['list_notes', { folder: '..' }],
      ['create_note', { path: 'huge.md', content: 'x'.repeat(MAX_EDITOR_TOOL_ARGS_CHARS + 1) }],
      ['read_note', 'not an object'],
      // The newer tools (#25): moves, exact edits, links and mentions stay inside the kiln and within their limits.
      ['move_note', { from: 'Bread.md', to: '../moved.md' }],
      ['move_note', { from: 'Bread.md', to: join(outside, 'moved.md') }],
      ['move_note', { from: '../' + outside.split('/').pop() + '/secret.md', to: 'stolen.md' }],
      ['edit_note', { path: 'link.md', edits: [{ old: 'SECRET', new: 'gone' }] }],
      ['edit_note', { path: 'Bread.md', edits: Array.from({ length: 101 }, (_, i) => ({ old: `x${i}`, new: 'y' })) }],
      ['get_links', { path: join(outside, 'secret.md') }],
      ['unlinked_mentions', { path: 'Bread.md', limit: 1e9 }],
      ['related_notes', { text: 'x'.repeat(10_001) }],
      ['text_search', { query: 'y'.repeat(10_001) }],
    ];
    for (const [name, args] of calls) {
      const result = await callFromEditor(tool(name), args, undefined, origin);
      assert.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 100)} → ${result.text}`);
      assert.doesNotMatch(result.text, /SECRET/);
    }
    assert.equal(readFileSync(join(outside, 'secret.md'), 'utf8'), 'SECRET\n');
    assert.equal(existsSync(join(outside, 'escaped.md')), false);
    assert.equal(existsSync(join(root, '..', 'escaped.md')), false);
    assert.equal(existsSync(join(root, 'huge.md')), false);
    assert.equal(existsSync(join(root, '..', 'moved.md')) || existsSync(join(outside, 'moved.md')) || existsSync(join(root, 'stolen.md')), false);
    assert.equal(readFileSync(join(root, 'Bread.md'), 'utf8'), ORIGINAL, 'the note stayed where and as it was');
  });
});
