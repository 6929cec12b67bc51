// Note references in replies become links that only post an `openNote` message (jsdom with scripts
// enabled): wiki links, path:line, code spans and markdown links to notes; `..`, absolute paths and
// URLs stay text; `javascript:`/`command:` links and raw HTML are shown as text, never run; a reply
// with 10 000 references renders with the capped number of links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { MAX_NOTE_LINKS } from '../../../src/core/chat/context/noteReferences';
import type { ChatState, WebviewMessage } from '../../../src/core/chat/protocol';
import { ChatApp } from '../../../src/webview/chatApp';
import { renderReply } from '../../../src/webview/markdown';

function dom() {
  const jsdom = new JSDOM('<!DOCTYPE html><body><div id="out"></div></body>', { runScripts: 'dangerously' });
  const doc = jsdom.window.document;
  return { window: jsdom.window as unknown as Window & { pwned?: boolean }, doc, out: doc.getElementById('out') as HTMLElement };
}

const links = (root: HTMLElement) => [...root.querySelectorAll<HTMLAnchorElement>('a.note-link')].map((a) => [a.dataset.target, a.dataset.line ?? null, a.textContent]);

for (const markdown of [true, false]) {
  test(`references become note links (${markdown ? 'markdown' : 'plain'})`, () => {
    const { doc, out } = dom();
    renderReply(doc, out, 'Your notes mention compost in techniques/Composting.md:12 and [[Soil types|soil]]; not ../secret.md, /etc/passwd.md or https://x.org/a.md.', markdown);
    assert.deepEqual(links(out), [
      ['techniques/Composting.md', '12', 'techniques/Composting.md:12'],
      ['Soil types', null, '[[Soil types|soil]]'],
    ]);
  });
}

test('markdown: a code span holding a path with spaces and a markdown link to a note link whole; code blocks do not', () => {
  const { doc, out } = dom();
  renderReply(doc, out, 'See `my notes/Compost heap.md:7` and [the beds](garden/raised%20beds.md).\n\n```\nnotes/in-code.md\n```', true);
  assert.deepEqual(links(out), [
    ['my notes/Compost heap.md', '7', 'my notes/Compost heap.md:7'],
    ['garden/raised beds.md', null, 'the beds'],
  ]);
  assert.equal(out.querySelector('pre a'), null);
});

test('javascript:, command: and raw HTML links are shown as text: no href, no note link, nothing runs', () => {
  const { window, doc, out } = dom();
  renderReply(doc, out, '[run](command:workbench.action.terminal.new) [js](javascript:window.pwned=true) [up](../../etc/passwd.md) <a href="command:x">raw</a> <b onclick="window.pwned=true">b</b>', true);
  assert.equal(window.pwned, undefined);
  assert.deepEqual(links(out), []);
  for (const a of out.querySelectorAll('a')) assert.equal(a.getAttribute('href'), null, a.outerHTML);
  assert.match(out.textContent!, /^run \[js\]\(javascript:window\.pwned=true\) up <a href="command:x">raw<\/a> <b onclick/);
});

test('a reply with 10 000 references renders with the capped number of links and all of its text', () => {
  const { doc, out } = dom();
  const text = Array.from({ length: 10_000 }, (_, i) => `n${i}.md`).join(' ');
  renderReply(doc, out, text, true);
  assert.equal(out.querySelectorAll('a.note-link').length, MAX_NOTE_LINKS);
  assert.equal(out.textContent!.trim(), text);
});

test('clicking a note link or a source posts one openNote message', () => {
  const jsdom = new JSDOM('<!DOCTYPE html><body><div id="app"></div></body>');
  const doc = jsdom.window.document;
  const sent: WebviewMessage[] = [];
  const app = new ChatApp({ doc, root: doc.getElementById('app')!, post: (m) => sent.push(m) });
  const state: ChatState = { settings: { enableMarkdown: true }, agents: [], showPicker: false, model: 'p/m', conversation: { id: 'c', title: 't', createdAt: 1, updatedAt: 1, turns: [] }, history: [], attachments: [], busy: false };
  app.receive({ type: 'state', state });
  app.receive({ type: 'turnStart', turnId: 't1', text: 'q', attachments: [] });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'text', text: 'In [[Composting]].' } });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'done', stopReason: 'end_turn' } });
  app.receive({ type: 'turnEnd', turnId: 't1' });
  app.receive({ type: 'sources', turnId: 't1', sources: [{ path: 'techniques/Composting.md', startLine: 3, endLine: 9, via: 'semantic_search' }] });
  const sources = doc.querySelector('.turn .sources')!;
  assert.equal(sources.querySelector('.sources-title')!.textContent, 'Sources');
  assert.equal(sources.querySelector('li')!.textContent, 'techniques/Composting.md:3 · semantic search');
  doc.querySelector<HTMLAnchorElement>('.turn .agent a.note-link')!.click();
  sources.querySelector<HTMLAnchorElement>('a.note-link')!.click();
  assert.deepEqual(sent.slice(-2), [
    { type: 'openNote', target: 'Composting' },
    { type: 'openNote', target: 'techniques/Composting.md', line: 3 },
  ]);
});

test('(#29) a reply citing a note path with spaces links the whole path once the host sent the kiln\'s paths', () => {
  const jsdom = new JSDOM('<!DOCTYPE html><body><div id="app"></div></body>');
  const doc = jsdom.window.document;
  const sent: WebviewMessage[] = [];
  const app = new ChatApp({ doc, root: doc.getElementById('app')!, post: (m) => sent.push(m) });
  const turns = [{ id: 't1', text: 'q', attachments: [], status: 'done' as const, createdAt: 1, events: [{ type: 'text' as const, text: 'See techniques/Companion Planting.md:9 for marigolds.' }] }];
  const state = { settings: { enableMarkdown: true }, agents: [], showPicker: false, model: 'p/m', conversation: { id: 'c', title: 't', createdAt: 1, updatedAt: 1, turns }, history: [], attachments: [], busy: false } as unknown as ChatState;
  app.receive({ type: 'state', state });
  // Before the list arrives only the tail is a path (the defect); the list re-links what is shown.
  app.receive({ type: 'notePaths', paths: ['techniques/Companion Planting.md'] });
  const link = doc.querySelector<HTMLAnchorElement>('.turn .agent a.note-link')!;
  assert.equal(link.textContent, 'techniques/Companion Planting.md:9');
  link.click();
  assert.deepEqual(sent.at(-1), { type: 'openNote', target: 'techniques/Companion Planting.md', line: 9 });
  const out = doc.createElement('div');
  renderReply(doc, out, 'Tomatoes (cherry).md:3 is the one', false, ['Tomatoes (cherry).md']);
  assert.deepEqual(links(out), [['Tomatoes (cherry).md', '3', 'Tomatoes (cherry).md:3']]);
});
