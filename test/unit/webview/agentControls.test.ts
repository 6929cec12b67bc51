// The active external agent in the webview (jsdom): its options as header pickers that ask the host
// (and move when the agent's state arrives), its `/` commands completed in the composer (Hearth's own
// stay on `:`), and its saved sessions listed beside Hearth's conversations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { AgentControlsView } from '../../../src/core/agents/agentControls';
import type { ChatState, WebviewMessage } from '../../../src/core/chat/protocol';
import { parseWebviewMessage } from '../../../src/core/chat/protocol';
import { ChatApp } from '../../../src/webview/chatApp';
import { complete } from '../../../src/webview/commandInput';

const CONTROLS: AgentControlsView = {
  options: [
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', value: 'ask', choices: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code' }] },
    { id: 'model', name: 'Model', category: 'model', type: 'select', value: 'small', choices: [{ value: 'small', name: 'Small' }, { value: 'large', name: 'Large' }] },
    { id: 'web', name: 'Web search', category: 'other', type: 'boolean', value: false },
  ],
  commands: [
    { name: 'review', description: 'Review the changes', hint: 'what to focus on' },
    { name: 'compact', description: 'Summarize the conversation' },
  ],
};

function setup(controls?: AgentControlsView) {
  const { window } = new JSDOM('<!DOCTYPE html><body><div id="app"></div></body>');
  const doc = window.document;
  const sent: WebviewMessage[] = [];
  const app = new ChatApp({ doc, root: doc.getElementById('app')!, post: (m) => sent.push(m) });
  const state: ChatState = {
    settings: { enableMarkdown: true },
    agents: [{ name: 'codex', kind: 'external', available: true }],
    showPicker: false,
    activeAgent: 'codex',
    model: 'local/qwen',
    conversation: { id: 'c1', title: 'New chat', createdAt: 1, updatedAt: 1, turns: [] },
    history: [],
    attachments: [],
    busy: false,
    ...(controls ? { agentControls: controls } : {}),
  };
  app.receive({ type: 'state', state });
  return { app, doc, sent, window };
}

test('the agent\'s options are header pickers; a change asks the host, the agent\'s update moves them; Hearth\'s model button hides', () => {
  const { app, doc, sent, window } = setup();
  assert.equal(doc.querySelectorAll('.agent-option').length, 0);
  app.receive({ type: 'agentControls', controls: CONTROLS });
  const selects = doc.querySelectorAll<HTMLSelectElement>('.agent-option select');
  assert.deepEqual([...selects].map((s) => s.value), ['ask', 'small']);
  assert.equal(doc.querySelector<HTMLButtonElement>('.model-button')!.hidden, true);
  selects[1]!.value = 'large';
  selects[1]!.dispatchEvent(new window.Event('change'));
  const box = doc.querySelector<HTMLInputElement>('.agent-option input[type=checkbox]')!;
  box.checked = true;
  box.dispatchEvent(new window.Event('change'));
  assert.deepEqual(sent.filter((m) => m.type === 'setAgentOption'), [{ type: 'setAgentOption', id: 'model', value: 'large' }, { type: 'setAgentOption', id: 'web', value: true }]);
  // Every message the pickers send passes the protocol.
  for (const message of sent) assert.ok('message' in parseWebviewMessage(message));
  app.receive({ type: 'agentControls', controls: { ...CONTROLS, options: [{ ...CONTROLS.options[0]!, value: 'code' } as AgentControlsView['options'][number]] } });
  assert.equal(doc.querySelector<HTMLSelectElement>('.agent-option select')!.value, 'code');
  assert.equal(doc.querySelector<HTMLButtonElement>('.model-button')!.hidden, false, 'no model picker of its own: Hearth\'s button is back');
  app.receive({ type: 'agentControls' });
  assert.equal(doc.querySelectorAll('.agent-option').length, 0);
});

test('`/` completes the agent\'s commands (with the input hint); `:` stays Hearth\'s', () => {
  const context = { agents: [], models: [], commands: CONTROLS.commands };
  assert.deepEqual(complete('/', context).map((c) => c.label), ['/review', '/compact']);
  assert.deepEqual(complete('/rev', context), [{ label: '/review', detail: 'Review the changes (what to focus on)', value: '/review ' }]);
  assert.deepEqual(complete('/co', context).map((c) => c.value), ['/compact']);
  assert.deepEqual(complete('/', { agents: [], models: [] }), [], 'no commands without an external agent');
  assert.ok(complete(':', context).every((c) => c.label.startsWith(':')));
});

test('a `/command` is sent as a message, as the agent expects', () => {
  const { app, sent, window } = setup(CONTROLS);
  app.input.value = '/review the tests';
  app.input.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  assert.deepEqual(sent.at(-1), { type: 'send', text: '/review the tests' });
});

test('the history asks for the agent\'s own sessions and opens one', () => {
  const { app, doc, sent } = setup(CONTROLS);
  doc.querySelector<HTMLButtonElement>('.history-button')!.click();
  assert.deepEqual(sent.at(-1), { type: 'listAgentSessions', agent: 'codex' });
  app.receive({ type: 'agentSessions', agent: 'codex', sessions: [{ sessionId: 's-9', cwd: '/ws', title: 'Fix the build', updatedAt: '2026-01-02T03:04:05Z' }] });
  const row = doc.querySelector<HTMLElement>('.agent-sessions li[data-session-id="s-9"] button')!;
  assert.match(row.textContent!, /Fix the build/);
  row.click();
  assert.deepEqual(sent.at(-1), { type: 'openAgentSession', agent: 'codex', sessionId: 's-9', title: 'Fix the build' });
});

test('a command run through Hearth\'s terminal is a collapsible block updated in place; the stored turn keeps its last state', async () => {
  const { appendEvent } = await import('../../../src/core/chat/conversation/conversation');
  const { app, doc } = setup();
  app.receive({ type: 'turnStart', turnId: 't1', text: 'build it', attachments: [] });
  const running = { type: 'terminal' as const, id: 'term-1', command: 'npm test', output: 'ok 1\n' };
  const ended = { ...running, output: 'ok 1\nok 2\n<script>x</script>', exit: { code: 1, signal: null } };
  app.receive({ type: 'event', turnId: 't1', event: running });
  app.receive({ type: 'event', turnId: 't1', event: ended });
  const blocks = doc.querySelectorAll('details.terminal');
  assert.equal(blocks.length, 1);
  assert.equal(blocks[0]!.querySelector('summary')!.textContent, '$ npm test — exit 1');
  assert.ok(blocks[0]!.classList.contains('failed'));
  assert.equal(blocks[0]!.querySelector('pre')!.textContent, 'ok 1\nok 2\n<script>x</script>');
  assert.equal(blocks[0]!.querySelector('script'), null, 'output is text, never markup');
  const events: Parameters<typeof appendEvent>[0] = [];
  appendEvent(events, running);
  appendEvent(events, ended);
  assert.deepEqual(events, [ended]);
});
