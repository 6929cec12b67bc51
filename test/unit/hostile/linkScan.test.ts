/**
 * Hostile notes: link and heading scanning is linear in the note's length. A 300 KB line of `[[`
 * (or of `[a`, or of unterminated `[](` destinations) once blocked the event loop for minutes; here
 * every such note is scanned in a bounded number of steps, and the links found are exactly the ones
 * the old regular expressions found on small inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heading, parseNote, wikiLinkTargets } from '../../../src/core/kiln/note';
import { scanMarkdownLinks, scanWikiLinks, type ScanCounter } from '../../../src/core/kiln/linkScan';

// The expressions linkScan replaces: the reference on inputs small enough for them.
const WIKILINK = /!?\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;
const MD_LINK = /(?<!!)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** Steps per character never exceeds this, whatever the input. */
const STEPS_PER_CHAR = 4;

const HOSTILE_UNITS = ['[[', '[a', '[]( ', '[](<', '[](a "', '[](a ', '![](', '[a](b', '[[a|', '[[a#', '](', '[]( a', '[[]]', '[[a]'];

test('a 300 KB note of any hostile unit is scanned in linear steps', () => {
  for (const unit of HOSTILE_UNITS) {
    const text = unit.repeat(Math.ceil(300_000 / unit.length));
    const wiki: ScanCounter = { steps: 0 };
    const md: ScanCounter = { steps: 0 };
    scanWikiLinks(text, wiki);
    scanMarkdownLinks(text, md);
    assert.ok(wiki.steps <= STEPS_PER_CHAR * text.length, `${JSON.stringify(unit)}: ${wiki.steps} wiki steps for ${text.length} chars`);
    assert.ok(md.steps <= STEPS_PER_CHAR * text.length, `${JSON.stringify(unit)}: ${md.steps} markdown steps for ${text.length} chars`);
  }
});

test('doubling a hostile note doubles the steps (not quadruples them)', () => {
  for (const unit of ['[[', '[a', '[]( a', '[](a "']) {
    const steps = (n: number) => {
      const c: ScanCounter = { steps: 0 };
      const text = unit.repeat(n);
      scanWikiLinks(text, c);
      scanMarkdownLinks(text, c);
      return c.steps;
    };
    const small = steps(20_000);
    const large = steps(40_000);
    assert.ok(large <= 2 * small + 16, `${JSON.stringify(unit)}: ${small} → ${large} steps`);
  }
});

test('the links found are the ones the old regular expressions found (seeded random lines)', () => {
  const alphabet = ['[', ']', '(', ')', '<', '>', '"', ' ', '!', '|', '#', 'a', 'b', '\n', '\t'];
  let seed = 13;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let n = 0; n < 20_000; n++) {
    let s = '';
    for (let i = 1 + Math.floor(random() * 14); i > 0; i--) s += alphabet[Math.floor(random() * alphabet.length)];
    const show = (links: { target: string; index: number }[]) => links.map((l) => `${l.target}@${l.index}`);
    assert.deepEqual(show(scanWikiLinks(s)), show([...s.matchAll(WIKILINK)].map((m) => ({ target: m[1].trim(), index: m.index }))), JSON.stringify(s));
    assert.deepEqual(show(scanMarkdownLinks(s)), show([...s.matchAll(MD_LINK)].map((m) => ({ target: m[1], index: m.index }))), JSON.stringify(s));
  }
});

test('a 300 KB hostile note parses whole; an 80 KB one yields its links for read_metadata', () => {
  const note = parseNote('hostile.md', '[['.repeat(150_000) + '\n[[real]] [x](y.md)\n# ' + ' '.repeat(100_000) + 'end');
  assert.deepEqual(note.links.map((l) => l.target), ['real', 'y.md']);
  assert.deepEqual(note.headings.map((h) => h.text), ['end']);
  assert.deepEqual(wikiLinkTargets(parseNote('h.md', '[['.repeat(40_000) + '\n[[a|b]] [[a#c]] [[d]]')), ['a', 'd']);
});

test('headings are read by hand as the old expression read them', () => {
  const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
  const cases = ['# a', '## a ##', '# a # b #', '#  ', '# ##', '#\ta\t', '####### a', '#a', '# a#', '###   x   ###   ', '# #', '#   ', '# \t#'];
  for (const line of cases) {
    const m = HEADING.exec(line);
    assert.deepEqual(heading(line), m ? { level: m[1].length, text: m[2] } : undefined, JSON.stringify(line));
  }
});
