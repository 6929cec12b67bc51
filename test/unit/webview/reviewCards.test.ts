// Agent edits waiting for review as cards in the chat panel (jsdom): the diff shown as text (never
// markup), Accept / Reject / Open Diff and Undo sending validated messages; malformed ones refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSDOM } from 'jsdom';
import { parseWebviewMessage, type WebviewMessage } from '../../../src/core/chat/protocol';
import { ChatApp } from '../../../src/webview/chatApp';

function setup() {
  const doc = new JSDOM('<!DOCTYPE html><body><div id="app"></div></body>').window.document;
  const sent: WebviewMessage[] = [];
  const app = new ChatApp({ doc, root: doc.getElementById('app')!, post: (m) => sent.push(m) });
  return { app, doc, sent };
}

const diff = '--- a/garden.md\n+++ b/garden.md\n@@ -1,2 +1,2 @@\n # Garden\n-<img src=x onerror=alert(1)>\n+Plant in April\n';

test('a pending change shows as a card with its diff as text; its buttons send accept, reject and open', () => {
  const { app, doc, sent } = setup();
  const section = doc.querySelector<HTMLElement>('.reviews')!;
  assert.equal(section.hidden, true, 'nothing pending: hidden');
  app.receive({ type: 'reviews', view: { cards: [{ id: 'r1', path: 'garden.md', kind: 'update', who: 'kiln', diff }] } });
  assert.equal(section.hidden, false);
  const card = doc.querySelector<HTMLElement>('.review-card[data-review-id="r1"]')!;
  assert.equal(card.querySelector('.review-title')!.textContent, 'kiln wants to change garden.md');
  assert.equal(card.querySelector('img'), null, 'diff text is never markup');
  assert.deepEqual([...card.querySelectorAll('.diff-line.removed')].map((line) => line.textContent), ['-<img src=x onerror=alert(1)>\n']);
  assert.deepEqual([...card.querySelectorAll('.diff-line.added')].map((line) => line.textContent), ['+Plant in April\n']);
  for (const name of ['accept', 'reject', 'open']) card.querySelector<HTMLButtonElement>(`button.${name}`)!.click();
  assert.deepEqual(sent, [
    { type: 'review', id: 'r1', decision: 'accept' },
    { type: 'review', id: 'r1', decision: 'reject' },
    { type: 'review', id: 'r1', decision: 'open' },
  ]);
  app.receive({ type: 'reviews', view: { cards: [], undoable: { who: 'kiln', paths: ['garden.md'] } } });
  assert.equal(doc.querySelector('.review-card'), null);
  assert.match(doc.querySelector('.review-undo')!.textContent!, /kiln changed garden\.md/);
  doc.querySelector<HTMLButtonElement>('.review-undo button.undo')!.click();
  assert.deepEqual(sent.at(-1), { type: 'undoLastChange' });
});

test('review messages from the webview are checked: unknown decisions, missing or oversized ids are refused', () => {
  assert.ok('message' in parseWebviewMessage({ type: 'review', id: 'r1', decision: 'accept' }));
  for (const bad of [{ type: 'review', id: 'r1', decision: 'merge' }, { type: 'review', decision: 'accept' }, { type: 'review', id: 'x'.repeat(201), decision: 'accept' }]) {
    assert.ok('error' in parseWebviewMessage(bad), JSON.stringify(bad).slice(0, 60));
  }
});
