// @hearth's grounding without an editor, on a real index (tiny local_cpu model): named notes and
// auto context become prompt sections and sources with line ranges; the reply's citations become
// anchors; no index, an index being built, a note outside the kiln and a hostile mention each
// answer without kiln context and say why — nothing outside the kiln is read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groundedMessages, groundRequest, MAX_NAMED_NOTES, PARTICIPANT_SYSTEM_PROMPT } from '../../../../src/core/chat/participant/participantGrounding';
import { ReplyAnchors, splitReply } from '../../../../src/core/chat/participant/replyAnchors';
import { parseAgentCommand, relatedQuery, resultLines } from '../../../../src/core/chat/participant/participantCommands';
import { makeKiln, removeKiln, tinyIndex } from '../../index/kilnIndexHelpers';

let kiln: string;
let outside: string;

before(async () => {
  kiln = makeKiln({
    'techniques/Composting.md': '# Composting\n\nTurn the compost heap weekly.\nKeep the compost moist like a sponge.\n\n## Browns\n\nDry leaves are browns.\n',
    'Bread.md': '# Bread\n\nFlour, water, salt and yeast.\n',
  });
  outside = mkdtempSync(join(tmpdir(), 'hearth-outside-'));
  writeFileSync(join(outside, 'secret.md'), 'SECRET OUTSIDE THE KILN\n');
  symlinkSync(join(outside, 'secret.md'), join(kiln, 'escape.md'));
  const builder = tinyIndex(kiln);
  await builder.update();
  await builder.dispose();
});
after(() => {
  removeKiln(kiln);
  rmSync(outside, { recursive: true, force: true });
});

describe('grounding', () => {
  test('auto context finds the note; its section is a source with its line range and reaches the prompt', async () => {
    const index = tinyIndex(kiln);
    try {
      const grounding = await groundRequest('how often do I turn the compost heap?', [], { kilnRoot: kiln, index, autoContext: true });
      assert.deepEqual(grounding.notices, []);
      const source = grounding.sources.find((s) => s.path === 'techniques/Composting.md');
      assert.ok(source, JSON.stringify(grounding.sources));
      assert.equal(source.via, 'auto_context');
      assert.ok(source.startLine >= 1 && source.endLine >= source.startLine);
      const messages = groundedMessages('how often do I turn the compost heap?', grounding);
      assert.equal(messages[0]!.content, PARTICIPANT_SYSTEM_PROMPT);
      assert.match(messages.at(-1)!.content, /From techniques\/Composting\.md \(lines \d+-\d+\):[\s\S]*Turn the compost heap weekly[\s\S]*Question: how often/);
    } finally {
      await index.dispose();
    }
  });

  test('[[mentions]], paths and #file references attach the note (a range only those lines); auto context off adds nothing else', async () => {
    const grounding = await groundRequest('compare [[Bread]] with techniques/Composting.md', [{ path: 'techniques/Composting.md', startLine: 6, endLine: 8 }], {
      kilnRoot: kiln,
      index: undefined,
      autoContext: false,
    });
    assert.deepEqual(grounding.notices, []);
    assert.deepEqual(grounding.sources.map((s) => [s.path, s.startLine, s.endLine, s.via]), [
      ['techniques/Composting.md', 6, 8, 'attachment'],
      ['Bread.md', 1, 4, 'attachment'],
      ['techniques/Composting.md', 1, 9, 'attachment'],
    ]);
    assert.match(grounding.attachments[0]!.text, /^## Browns/);
  });

  test('no index: the answer goes on and says why; an index being built says that instead', async () => {
    const none = await groundRequest('compost?', [], { kilnRoot: kiln, index: undefined, autoContext: true });
    assert.deepEqual(none.attachments, []);
    assert.match(none.notices.join(), /no kiln context: no index yet/);
    const building = await groundRequest('compost?', [], { kilnRoot: kiln, index: undefined, indexUnavailable: 'the index is being built (3 of 10 notes)', autoContext: true });
    assert.match(building.notices.join(), /being built \(3 of 10 notes\)/);
    const noKiln = await groundRequest('compost?', [], { kilnRoot: undefined, index: undefined, autoContext: true });
    assert.match(noKiln.notices.join(), /no kiln is open/);
  });

  test('hostile mentions: `..`, absolute paths and a link out of the kiln are never read', async () => {
    const grounding = await groundRequest(`read ../../etc/passwd.md and /etc/hosts.md and ${join(outside, 'secret.md')} and escape.md and [[nope]]`, [{ path: '../secret.md' }], {
      kilnRoot: kiln,
      index: undefined,
      autoContext: false,
    });
    const text = JSON.stringify(grounding.attachments);
    assert.doesNotMatch(text, /SECRET OUTSIDE/);
    assert.doesNotMatch(text, /root:/);
    assert.deepEqual(grounding.attachments, []);
    assert.ok(grounding.notices.some((n) => /escape\.md/.test(n)), grounding.notices.join('\n'));
    assert.ok(grounding.notices.some((n) => /No note named "nope"/.test(n)), grounding.notices.join('\n'));
  });

  test('a message naming hundreds of notes attaches at most MAX_NAMED_NOTES', async () => {
    const prompt = Array.from({ length: 300 }, () => '[[Bread]] Bread.md').join(' ');
    const grounding = await groundRequest(prompt, [], { kilnRoot: kiln, index: undefined, autoContext: false });
    assert.ok(grounding.attachments.length <= MAX_NAMED_NOTES);
  });
});

describe('reply citations → anchors', () => {
  test('paths with lines, wiki links and backticked paths become note segments; the rest stays text', () => {
    assert.deepEqual(splitReply('Turn it weekly: see [[Composting]] and `techniques/Composting.md:4`.'), [
      { kind: 'text', text: 'Turn it weekly: see ' },
      { kind: 'note', text: '[[Composting]]', target: 'Composting', wikilink: true },
      { kind: 'text', text: ' and ' },
      { kind: 'note', text: 'techniques/Composting.md:4', target: 'techniques/Composting.md', wikilink: false, line: 4 },
      { kind: 'text', text: '.' },
    ]);
    assert.deepEqual(splitReply('see https://x.org/a.md and /etc/passwd.md'), [{ kind: 'text', text: 'see https://x.org/a.md and /etc/passwd.md' }]);
  });

  test('streamed in pieces, a citation cut across chunks is still one anchor and no text is lost', () => {
    const reply = 'Weekly, per techniques/Composting.md:4 and [[Bread]].\nDone.';
    for (let size = 1; size < reply.length; size += 3) {
      const anchors = new ReplyAnchors();
      const segments = [];
      for (let i = 0; i < reply.length; i += size) segments.push(...anchors.push(reply.slice(i, i + size)));
      segments.push(...anchors.flush());
      assert.equal(segments.map((s) => s.text).join(''), reply);
      assert.deepEqual(segments.filter((s) => s.kind === 'note').map((s) => s.text), ['techniques/Composting.md:4', '[[Bread]]'], `chunk size ${size}`);
    }
  });

  test('a long line without a newline is passed on before the reply ends, never inside an open [[', () => {
    const anchors = new ReplyAnchors();
    const early = anchors.push(`${'word '.repeat(100)}[[Long Note Name`);
    assert.ok(early.length > 0);
    assert.doesNotMatch(early.map((s) => s.text).join(''), /\[\[/);
    const rest = [...anchors.push(']] end'), ...anchors.flush()];
    assert.deepEqual(rest.filter((s) => s.kind === 'note').map((s) => s.text), ['[[Long Note Name]]']);
  });
});

describe('commands', () => {
  test('search results: one line per note at its best section, with heading and relevance', () => {
    const lines = resultLines([{ path: 'a.md', title: 'A', heading: 'A > B', startLine: 5, endLine: 9, score: 0.91234, snippet: 'x\n  y' }]);
    assert.deepEqual(lines, [{ path: 'a.md', line: 5, endLine: 9, detail: '§ A > B · relevance 0.91', snippet: 'x y' }]);
  });

  test('/related searches with the text without frontmatter or markup, bounded; nothing to search is undefined', () => {
    assert.equal(relatedQuery('---\ntags: [x]\n---\n# Compost **heap**\n- turn'), 'Compost heap turn');
    assert.equal(relatedQuery('x'.repeat(10_000))!.length, 2_000);
    assert.equal(relatedQuery('---\na: 1\n---\n  '), undefined);
  });

  test('/agent NAME TASK; a missing task is undefined', () => {
    assert.deepEqual(parseAgentCommand(' kiln  tidy my tags\nplease '), { name: 'kiln', task: 'tidy my tags\nplease' });
    assert.equal(parseAgentCommand('kiln'), undefined);
    assert.equal(parseAgentCommand(''), undefined);
  });
});
