// The earlier turns as chat history for a new internal session: alternating user/assistant, never an
// empty message (providers refuse them), attachments named, and bounded to the most recent turns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { historyMessages, MAX_RECAP_CHARS, type Turn } from '../../../src/core/chat/conversation/conversation';

function turn(id: string, text: string, events: Turn['events'], status: Turn['status'] = 'done', attachments: Turn['attachments'] = []): Turn {
  return { id, text, attachments, events, status };
}

test('each turn is a user message and a reply; empty replies say what happened; attachments are named', () => {
  const messages = historyMessages([
    turn('a', 'hi', [{ type: 'text', text: 'Hello' }, { type: 'done', stopReason: 'end_turn' }], 'done', [{ path: 'notes/a.md', startLine: 2, endLine: 4 }]),
    turn('b', 'make a note', [{ type: 'tool_call', id: 't', name: 'create_note', status: 'completed' }]),
    turn('c', 'long one', [{ type: 'done', stopReason: 'cancelled' }], 'cancelled'),
    turn('d', 'broken', [{ type: 'error', code: 'llm.unreachable', message: 'down' }], 'error'),
  ]);
  assert.deepEqual(messages, [
    { role: 'user', text: 'hi\n\n(attached: notes/a.md:2-4)' },
    { role: 'assistant', text: 'Hello' },
    { role: 'user', text: 'make a note' },
    { role: 'assistant', text: '(tools used: create_note (completed))' },
    { role: 'user', text: 'long one' },
    { role: 'assistant', text: '(stopped by the user before answering)' },
    { role: 'user', text: 'broken' },
    { role: 'assistant', text: '(the answer failed)' },
  ]);
});

test('only the most recent turns that fit are kept, whole, and a single huge turn is cut to the bound', () => {
  const big = 'x'.repeat(MAX_RECAP_CHARS / 2);
  const turns = [turn('1', `old ${big}`, [{ type: 'text', text: 'r1' }]), turn('2', `mid ${big}`, [{ type: 'text', text: 'r2' }]), turn('3', 'new', [{ type: 'text', text: 'r3' }])];
  const messages = historyMessages(turns);
  assert.deepEqual(messages.filter((m) => m.role === 'assistant').map((m) => m.text), ['r2', 'r3']);
  const huge = historyMessages([turn('h', 'y'.repeat(MAX_RECAP_CHARS * 2), [{ type: 'text', text: 'ok' }])]);
  assert.equal(huge.length, 2);
  assert.ok(huge[0]!.text.length <= MAX_RECAP_CHARS + 1);
});
