// The chat panel's webview in jsdom: state and streamed events rendered (markdown, tools collapsed
// with arguments and result, inline permission prompts, errors with retry), and what the user's
// keys and clicks send to the host (Enter, Shift+Enter, ↑, `:` completion, stop, picker, history).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { ChatState, WebviewMessage } from '../../../src/core/chat/protocol';
import type { AgentEvent } from '../../../src/core/agents/agentSession';
import { ChatApp } from '../../../src/webview/chatApp';

function setup(overrides: Partial<ChatState> = {}) {
  const jsdom = new JSDOM('<!DOCTYPE html><body><div id="app"></div></body>');
  const window = jsdom.window;
  const doc = window.document;
  const sent: WebviewMessage[] = [];
  const app = new ChatApp({ doc, root: doc.getElementById('app')!, post: (m) => sent.push(m) });
  const state: ChatState = {
    settings: { enableMarkdown: true },
    agents: [
      { name: 'kiln', kind: 'internal', description: 'Answers from your notes', available: true },
      { name: 'claude-code', kind: 'external', available: false, unavailableReason: 'claude-code-acp is not on PATH' },
    ],
    showPicker: false,
    activeAgent: 'kiln',
    model: 'local/qwen2.5:0.5b',
    conversation: { id: 'c1', title: 'New chat', createdAt: 1, updatedAt: 1, turns: [] },
    history: [],
    attachments: [],
    busy: false,
    ...overrides,
  };
  app.receive({ type: 'state', state });
  const $ = <T extends Element = HTMLElement>(selector: string) => doc.querySelector<T>(selector) as T;
  const key = (k: string, init: KeyboardEventInit = {}) => app.input.dispatchEvent(new window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  const type = (text: string) => {
    app.input.value = text;
    app.input.setSelectionRange(text.length, text.length);
    app.input.dispatchEvent(new window.Event('input'));
  };
  return { app, doc, sent, $, key, type, state };
}

test('a streamed turn: the user message with its attachment, markdown built from chunks, usage when done', () => {
  const { app, $ } = setup();
  app.receive({ type: 'turnStart', turnId: 't1', text: 'How do tomatoes grow?', attachments: [{ path: 'garden/tomatoes.md', startLine: 2, endLine: 5 }] });
  assert.equal($('.send').textContent, 'Stop');
  assert.equal($('.turn .user .body').textContent, 'How do tomatoes grow?');
  assert.match($('.turn .user .attached').textContent!, /garden\/tomatoes\.md:2-5/);
  assert.ok($('.turn').classList.contains('running'));
  app.receive({ type: 'event', turnId: 't1', event: { type: 'text', text: 'They need **sun' } });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'text', text: '** and water.' } });
  assert.equal($('.turn .agent strong').textContent, 'sun');
  app.receive({ type: 'event', turnId: 't1', event: { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } } });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'done', stopReason: 'end_turn' } });
  app.receive({ type: 'turnEnd', turnId: 't1' });
  assert.equal($('.send').textContent, 'Send');
  assert.ok(!$('.turn').classList.contains('running'));
  assert.equal($('.turn-status').textContent, '10 in · 5 out');
});

test('an ACP agent\'s context window shows beside the token counts; an unknown "used" shows the window alone', () => {
  const { app, $ } = setup();
  app.receive({ type: 'turnStart', turnId: 't1', text: 'hi', attachments: [] });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'usage', context: { size: 200_000 } } });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'done', stopReason: 'end_turn' } });
  app.receive({ type: 'turnEnd', turnId: 't1' });
  assert.equal($('.turn-status').textContent, 'context window 200k tokens');
  app.receive({ type: 'turnStart', turnId: 't2', text: 'again', attachments: [] });
  app.receive({ type: 'event', turnId: 't2', event: { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } } });
  app.receive({ type: 'event', turnId: 't2', event: { type: 'usage', context: { used: 12_345, size: 200_000, cost: { amount: 0.01, currency: 'USD' } } } });
  app.receive({ type: 'turnEnd', turnId: 't2' });
  assert.equal([...app['messages'].querySelectorAll('.turn-status')].at(-1)!.textContent, '10 in · 5 out · context 12.3k / 200k tokens · 0.0100 USD');
});

test('a permission prompt lands in the turn that waits for it, and is scrolled into view', () => {
  const { app, doc } = setup();
  for (const id of ['t1', 't2', 't3']) app.receive({ type: 'turnStart', turnId: id, text: id, attachments: [] });
  const scrolled: Element[] = [];
  (doc.defaultView as unknown as { HTMLElement: typeof HTMLElement }).HTMLElement.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this);
  };
  app.receive({ type: 'permission', requestId: 'p1', turnId: 't3', request: { toolCallId: 'c1', title: 'Allow Create note?', options: [{ optionId: 'once', name: 'Allow', kind: 'allow_once' }] } });
  const prompt = doc.querySelector('.permission')!;
  assert.equal(prompt.closest<HTMLElement>('.turn')!.dataset.turnId, 't3');
  assert.deepEqual(scrolled, [prompt]);
});

test('tool calls are collapsed with name, arguments and result; permission prompts show the agent\'s options and post the choice', () => {
  const { app, $, doc, sent } = setup();
  app.receive({ type: 'turnStart', turnId: 't1', text: 'make a note', attachments: [] });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'tool_call', id: 'c1', name: 'create_note', arguments: { path: 'a.md', content: '# A' }, status: 'pending' } });
  app.receive({ type: 'permission', requestId: 'p1', turnId: 't1', request: { toolCallId: 'c1', title: 'create_note a.md', detail: 'path: a.md', options: [{ optionId: 'once', name: 'Allow once', kind: 'allow_once' }, { optionId: 'always', name: 'Always allow', kind: 'allow_always' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] } });
  const buttons = [...doc.querySelectorAll<HTMLButtonElement>('.permission button')];
  assert.deepEqual(
    buttons.map((b) => b.textContent),
    ['Allow once', 'Always allow', 'Reject'],
  );
  assert.equal($('.permission-detail').textContent, 'path: a.md');
  assert.equal($('.permission-title').textContent, 'create_note a.md', 'the title as the agent wrote it, nothing glued on');
  buttons[2]!.click();
  assert.deepEqual(sent.at(-1), { type: 'permission', requestId: 'p1', optionId: 'no' });
  assert.ok(buttons.every((b) => b.disabled), 'answered once');
  app.receive({ type: 'permissionDone', requestId: 'p1', optionId: 'no' });
  assert.equal($('.permission-answer').textContent, 'You chose: Reject');

  app.receive({ type: 'event', turnId: 't1', event: { type: 'tool_update', id: 'c1', status: 'denied' } });
  const tool = $<HTMLDetailsElement>('details.tool');
  assert.equal(tool.open, false, 'collapsed by default');
  assert.equal(tool.dataset.status, 'denied');
  assert.equal($('.tool-name').textContent, 'create_note');
  assert.equal($('.tool-status').textContent, 'denied');
  assert.deepEqual(JSON.parse($('.tool-args').textContent!), { path: 'a.md', content: '# A' });
  // (#29) An edit the user rejected in review reads "rejected", not "failed".
  app.receive({ type: 'event', turnId: 't1', event: { type: 'tool_call', id: 'c9', name: 'update_note', arguments: { path: 'a.md' }, status: 'in_progress' } });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'tool_update', id: 'c9', status: 'failed', isError: true, code: 'changes.rejected' } });
  assert.equal(doc.querySelector('details.tool[data-status="failed"] .tool-status')!.textContent, 'rejected');

  app.receive({ type: 'event', turnId: 't1', event: { type: 'tool_call', id: 'c2', name: 'read_note', arguments: { path: 'b.md' }, status: 'in_progress' } });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'tool_update', id: 'c2', status: 'completed', result: '<b>note text</b>' } });
  const results = doc.querySelectorAll('.tool-result');
  assert.equal(results[0]!.textContent, '<b>note text</b>', 'results are text, never HTML');
});

test('an error shows its remedy and a retry button that asks the host to run the turn again; a stop is marked', () => {
  const { app, $, sent } = setup();
  app.receive({ type: 'turnStart', turnId: 't1', text: 'hi', attachments: [] });
  app.receive({ type: 'event', turnId: 't1', event: { type: 'error', code: 'llm.unreachable', message: 'cannot connect to local at http://127.0.0.1:11434', remedy: 'Start the runner: ollama serve' } });
  assert.equal($('.error').getAttribute('role'), 'alert');
  assert.equal($('.error-remedy').textContent, 'Start the runner: ollama serve');
  $<HTMLButtonElement>('.error .retry').click();
  assert.deepEqual(sent.at(-1), { type: 'retry', turnId: 't1' });

  app.receive({ type: 'turnStart', turnId: 't2', text: 'long', attachments: [] });
  $<HTMLButtonElement>('.send').click();
  assert.deepEqual(sent.at(-1), { type: 'stop' });
  app.receive({ type: 'event', turnId: 't2', event: { type: 'done', stopReason: 'cancelled' } });
  assert.equal($('.turn[data-turn-id="t2"] .stopped').textContent, 'Stopped.');
});

test('Enter sends, Shift+Enter does not, ↑ recalls; `:` commands complete and run; unknown commands stay local', () => {
  const { app, sent, key, type, $, doc } = setup();
  type('first question');
  key('Enter');
  assert.deepEqual(sent.at(-1), { type: 'send', text: 'first question' });
  assert.equal(app.input.value, '');

  type('line one');
  const before = sent.length;
  key('Enter', { shiftKey: true });
  assert.equal(sent.length, before, 'Shift+Enter is a new line, not a send');

  type('');
  key('ArrowUp');
  assert.equal(app.input.value, 'first question');

  type(':mo');
  assert.equal($('.completions').hidden, false);
  assert.deepEqual(
    [...doc.querySelectorAll('.completions .completion-label')].map((e) => e.textContent),
    [':model', ':models'],
  );
  key('Enter'); // completes the partial command…
  assert.equal(app.input.value, ':model ');
  assert.deepEqual(sent.at(-1), { type: 'requestModels' }, 'model ids are asked for once :model is typed');
  app.receive({ type: 'models', ids: ['local/qwen2.5:0.5b', 'cloud/gpt-4o-mini'] });
  type(':model gpt');
  key('Tab');
  assert.equal(app.input.value, ':model cloud/gpt-4o-mini');
  key('Enter'); // …and runs a complete one
  assert.deepEqual(sent.at(-1), { type: 'command', name: 'model', arg: 'cloud/gpt-4o-mini' });

  type(':nope');
  key('Enter');
  assert.match(doc.querySelector('.notice.error')!.textContent!, /Unknown command :nope/);
  assert.deepEqual(sent.at(-1), { type: 'command', name: 'model', arg: 'cloud/gpt-4o-mini' });

  app.receive({ type: 'model', model: 'cloud/gpt-4o-mini' });
  assert.equal($('.model-button').textContent, 'cloud/gpt-4o-mini');
});

test('the agent picker lists internal and external agents, disables unavailable ones with why, and posts the pick', () => {
  const { $, doc, sent, app, state } = setup({ showPicker: true, activeAgent: undefined });
  assert.equal($('.agent-button').textContent, 'Choose agent…');
  const cards = [...doc.querySelectorAll<HTMLButtonElement>('.agent-card')];
  assert.deepEqual(
    cards.map((c) => c.dataset.agent),
    ['kiln', 'claude-code'],
  );
  assert.ok(cards[1]!.disabled);
  assert.match(cards[1]!.textContent!, /Unavailable: claude-code-acp is not on PATH/);
  cards[0]!.click();
  assert.deepEqual(sent.at(-1), { type: 'pickAgent', name: 'kiln' });
  app.receive({ type: 'state', state: { ...state, showPicker: false, activeAgent: 'kiln' } });
  assert.equal(doc.querySelector('.agent-picker'), null);
  assert.equal($('.agent-button').textContent, 'kiln');
  assert.match($('.agent-button').title, /^Agent: kiln — choose the agent/);
});

test('a restored conversation renders from its saved events; history lists conversations to open or delete', () => {
  const { $, doc, sent } = setup({
    conversation: {
      id: 'c1',
      title: 'tomatoes',
      agent: 'kiln',
      createdAt: 1,
      updatedAt: 2,
      turns: [{ id: 't1', text: 'tomatoes?', attachments: [], status: 'done', events: [{ type: 'text', text: '# Tomatoes\nNeed *sun*.' }, { type: 'done', stopReason: 'end_turn' }] }],
    },
    history: [
      { id: 'c1', title: 'tomatoes', agent: 'kiln', updatedAt: 2, turns: 1 },
      { id: 'c0', title: 'beans', updatedAt: 1, turns: 3 },
    ],
  });
  assert.equal($('.turn .agent h1').textContent, 'Tomatoes');
  assert.equal($('.turn .agent em').textContent, 'sun');
  $<HTMLButtonElement>('.history-button').click();
  const rows = [...doc.querySelectorAll<HTMLElement>('.history-list li')];
  assert.deepEqual(
    rows.map((r) => r.dataset.conversationId),
    ['c1', 'c0'],
  );
  rows[1]!.querySelector<HTMLButtonElement>('.history-delete')!.click();
  assert.deepEqual(sent.at(-1), { type: 'deleteConversation', id: 'c0' });
  rows[1]!.querySelector<HTMLButtonElement>('.history-open')!.click();
  assert.deepEqual(sent.at(-1), { type: 'openConversation', id: 'c0' });
});

test('attachments: chips with remove, attach the active note, search hits to attach', () => {
  const { app, $, doc, sent } = setup();
  app.receive({ type: 'attachments', attachments: [{ path: 'garden/beans.md' }] });
  assert.match($('.composer .chips').textContent!, /garden\/beans\.md/);
  $<HTMLButtonElement>('.composer .chips button').click();
  assert.deepEqual(sent.at(-1), { type: 'removeAttachment', index: 0 });
  $<HTMLButtonElement>('.attach-note').click();
  assert.deepEqual(sent.at(-1), { type: 'attachActiveNote' });
  app.receive({ type: 'searchResults', query: 'beans', hits: [{ path: 'garden/beans.md', title: 'Beans', heading: 'Sowing', startLine: 4, endLine: 9, snippet: 'Sow beans after the last frost' }] });
  const hit = $('.search-results .hit');
  assert.match(hit.textContent!, /Beans garden\/beans\.md:4-9 · Sowing/);
  hit.querySelector<HTMLButtonElement>('button')!.click();
  assert.deepEqual(sent.at(-1), { type: 'attachHit', path: 'garden/beans.md', startLine: 4, endLine: 9 });
  assert.equal($('.composer .search').hidden, true, 'the note search closes after use');
  assert.equal(doc.activeElement, app.input, 'typing goes on in the message');
  app.receive({ type: 'searchResults', query: 'zzz', hits: [], error: 'Search is not available yet: build the index first.' });
  assert.match(doc.querySelector('.search-results')!.textContent!, /build the index first/);
});

test(':help as a list; notices stay through state updates until the conversation moves on', () => {
  const { app, doc, state } = setup();
  app.receive({ type: 'notice', level: 'info', text: 'Commands', items: [':model — open the model switcher', ':new — start a new conversation'] });
  const notice = () => doc.querySelector('.messages .notice');
  assert.equal(notice()!.querySelector('.notice-text')!.textContent, 'Commands');
  assert.deepEqual([...notice()!.querySelectorAll('.notice-items li')].map((li) => li.textContent), [':model — open the model switcher', ':new — start a new conversation']);
  // A config change re-sends the state: the notice is still there.
  app.receive({ type: 'state', state: { ...state, model: 'cloud/gpt-4o-mini' } });
  assert.ok(notice(), 'kept through a state update');
  // The conversation moves on: a new turn, then the state after it, no longer shows it.
  app.receive({ type: 'turnStart', turnId: 't1', text: 'hi', attachments: [] });
  app.receive({ type: 'turnEnd', turnId: 't1' });
  app.receive({ type: 'state', state: { ...state, conversation: { ...state.conversation, turns: [{ id: 't1', text: 'hi', attachments: [], events: [], status: 'done' }] } } });
  assert.equal(notice(), null);
});

test('history rows start with the date, so conversations with the same first words differ', () => {
  const { app, $, state } = setup();
  const day = (d: number) => Date.UTC(2026, 10, d, 12, 0);
  app.receive({ type: 'state', state: { ...state, history: [
    { id: 'a', title: 'How do tomatoes grow?', updatedAt: day(20), turns: 2 },
    { id: 'b', title: 'How do tomatoes grow?', updatedAt: day(23), turns: 1 },
  ] } });
  $<HTMLButtonElement>('.history-button').click();
  const rows = [...$('.history-list').querySelectorAll('.history-open')].map((b) => b.textContent!);
  assert.equal(rows.length, 2);
  assert.notEqual(rows[0], rows[1]);
  for (const row of rows) assert.match(row, /^Nov 2\d, \d\d:\d\d( [AP]M)? · How do tomatoes grow\?/);
});

test('mentions: @ asks the host for notes, the pick becomes a chip and stays in the text as [[Note]] (#29); # narrows to headings; stale answers are dropped', () => {
  const { app, $, doc, sent, key, type } = setup();
  type('what about @comp');
  assert.deepEqual(sent.at(-1), { type: 'completeNotes', query: 'comp' });
  // An answer for an older query is ignored.
  app.receive({ type: 'noteCompletions', query: 'co', items: [{ path: 'x.md', title: 'x' }] });
  assert.equal($('.completions').hidden, true);
  app.receive({ type: 'noteCompletions', query: 'comp', items: [{ path: 'techniques/Composting.md', title: 'Composting' }, { path: 'garden/compost bins.md', title: 'compost bins' }] });
  assert.deepEqual([...doc.querySelectorAll('.completions li .completion-label')].map((l) => l.textContent), ['Composting', 'compost bins']);
  key('ArrowDown');
  key('Enter');
  assert.deepEqual(sent.at(-1), { type: 'attachHit', path: 'garden/compost bins.md' });
  assert.equal(app.input.value, 'what about [[compost bins]] ');
  assert.equal($('.completions').hidden, true);

  type('see [[Composting#br');
  assert.deepEqual(sent.at(-1), { type: 'completeNotes', query: 'Composting', heading: 'br' });
  app.receive({ type: 'noteCompletions', query: 'Composting', heading: 'br', items: [{ path: 'techniques/Composting.md', title: 'Composting', heading: 'Browns', startLine: 5, endLine: 12 }] });
  assert.equal($('.completions li .completion-label').textContent, '# Browns');
  key('Tab');
  assert.deepEqual(sent.at(-1), { type: 'attachHit', path: 'techniques/Composting.md', startLine: 5, endLine: 12 });
  assert.equal(app.input.value, 'see [[Composting#Browns]] ');
  // Mid-sentence: the name stays where it was typed, and that is what is sent.
  app.input.value = '';
  type('What does @bas');
  app.input.value += ' say about pinching out flowers?';
  app.input.setSelectionRange('What does @bas'.length, 'What does @bas'.length);
  app.receive({ type: 'noteCompletions', query: 'bas', items: [{ path: 'herbs/Basil.md', title: 'Basil' }] });
  key('Enter');
  assert.equal(app.input.value, 'What does [[Basil]] say about pinching out flowers?');
  assert.equal(app.input.selectionStart, 'What does [[Basil]]'.length);
  key('Enter');
  assert.deepEqual(sent.at(-1), { type: 'send', text: 'What does [[Basil]] say about pinching out flowers?' });
  // An e-mail address is not a mention.
  const before = sent.length;
  type('mail me at a@b.org');
  assert.equal(sent.length, before);
});

test('the active note is offered as a one-click chip, and hidden while it is attached', () => {
  const { app, $, sent } = setup();
  app.receive({ type: 'activeNote', ref: { path: 'garden/tomatoes.md', startLine: 3, endLine: 5 } });
  const chip = $<HTMLButtonElement>('.suggestion button.suggested');
  assert.equal(chip.textContent, '+ garden/tomatoes.md:3-5');
  chip.click();
  assert.deepEqual(sent.at(-1), { type: 'attachActiveNote' });
  app.receive({ type: 'attachments', attachments: [{ path: 'garden/tomatoes.md', startLine: 3, endLine: 5 }] });
  assert.equal($('.suggestion').hidden, true);
  app.receive({ type: 'attachments', attachments: [] });
  assert.equal($('.suggestion').hidden, false, 'removing the chip offers it again');
  app.receive({ type: 'activeNote' });
  assert.equal($('.suggestion').hidden, true);
});

test('a message sent during a turn: "still streaming" while the agent works, "waiting for your answer" while it waits on a prompt or a change', () => {
  const { app, key, type, doc } = setup();
  app.receive({ type: 'turnStart', turnId: 't1', text: 'go', attachments: [] });
  const lastNotice = () => [...doc.querySelectorAll('.notice')].at(-1)?.textContent ?? '';
  type('are you there?');
  key('Enter');
  assert.match(lastNotice(), /still streaming/);
  app.receive({ type: 'permission', requestId: 'p1', turnId: 't1', request: { toolCallId: 'c1', title: 'create_note a.md', options: [{ optionId: 'once', name: 'Allow', kind: 'allow_once' }] } });
  type('are you there?');
  key('Enter');
  assert.match(lastNotice(), /waiting for your answer above/);
  app.receive({ type: 'permissionDone', requestId: 'p1', optionId: 'once' });
  // A change waiting for review (the diff tab may have been closed): the card is the question.
  app.receive({ type: 'reviews', view: { cards: [{ id: 'r1', path: 'bread.md', kind: 'update', who: 'kiln', diff: '@@ -1 +1 @@\n-a\n+b' }] } });
  type('are you there?');
  key('Enter');
  assert.match(lastNotice(), /waiting for your answer above \(a permission, or a change to accept or reject\)/);
  app.receive({ type: 'reviews', view: { cards: [] } });
  type('are you there?');
  key('Enter');
  assert.match(lastNotice(), /still streaming/);
});

test('a provider that did not answer: the choices show as buttons in the error box, only in the newest one; a click sends the choice', () => {
  const { app, doc, sent } = setup();
  const fail = (turnId: string) => {
    app.receive({ type: 'turnStart', turnId, text: 'hi', attachments: [] });
    app.receive({ type: 'event', turnId, event: { type: 'error', code: 'llm.unreachable', message: 'cannot connect to local', remedy: 'Start the model server.' } });
    app.receive({ type: 'choices', turnId, choices: [{ id: 'runner.start', label: 'Start the local runner', detail: 'Runs ollama serve' }, { id: 'editor:gpt-4o', label: 'Use GPT-4o (copilot)' }] });
  };
  fail('t1');
  const buttons = [...doc.querySelectorAll<HTMLButtonElement>('.turn[data-turn-id="t1"] .error .error-choices button.choice')];
  assert.deepEqual(buttons.map((b) => b.textContent), ['Start the local runner', 'Use GPT-4o (copilot)']);
  assert.equal(buttons[0].title, 'Runs ollama serve');
  // Between the remedy and Retry.
  assert.equal(doc.querySelector('.error-choices')!.nextElementSibling?.className, 'retry');
  buttons[1].click();
  assert.deepEqual(sent.at(-1), { type: 'choice', id: 'editor:gpt-4o' });
  fail('t2');
  assert.equal(doc.querySelectorAll('.error-choices').length, 1, 'said once');
  assert.ok(doc.querySelector('.turn[data-turn-id="t2"] .error-choices'));
});

test('the choices survive a redraw of the conversation (they are not saved with the turn) and go when the next turn starts', () => {
  const { app, doc, state } = setup();
  const error: AgentEvent = { type: 'error', code: 'llm.unreachable', message: 'cannot connect to down', remedy: 'Start the model server.' };
  app.receive({ type: 'turnStart', turnId: 't1', text: 'hi', attachments: [] });
  app.receive({ type: 'event', turnId: 't1', event: error });
  app.receive({ type: 'choices', turnId: 't1', choices: [{ id: 'switch:cloud/gpt-4o-mini', label: 'Use cloud/gpt-4o-mini' }] });
  // The host sends its state again after the turn (not busy): the conversation is drawn afresh.
  const turn = { id: 't1', text: 'hi', attachments: [], events: [error], status: 'error' as const };
  app.receive({ type: 'state', state: { ...state, busy: false, conversation: { ...state.conversation, turns: [turn] } } });
  assert.equal(doc.querySelector('.turn[data-turn-id="t1"] .error .error-choices button.choice')?.textContent, 'Use cloud/gpt-4o-mini');
  app.receive({ type: 'turnStart', turnId: 't2', text: 'again', attachments: [] });
  app.receive({ type: 'state', state: { ...state, busy: false, conversation: { ...state.conversation, turns: [turn] } } });
  assert.equal(doc.querySelectorAll('.error-choices').length, 0, 'a new turn moved on');
});
