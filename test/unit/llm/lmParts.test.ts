// Conversion between vscode.lm message parts (as plain shapes) and Hearth's provider types.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chatEventToLmPart,
  chatMessagesToLm,
  dataPartText,
  estimateLmTokens,
  lmMessagesToChat,
  lmPartToChatEvent,
  lmToolsToDefinitions,
  MAX_INLINE_DATA_CHARS,
  type LmMessage,
} from '../../../src/core/llm/lmParts';
import type { ChatMessage } from '../../../src/core/llm/types';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('vscode.lm messages → Hearth', () => {
  test('text, a tool call, its result and a follow-up keep their order and names', () => {
    const messages: LmMessage[] = [
      { role: 'system', parts: [{ kind: 'text', value: 'Be terse.' }] },
      { role: 'user', parts: [{ kind: 'text', value: 'Find ' }, { kind: 'text', value: 'bread' }] },
      { role: 'assistant', parts: [{ kind: 'text', value: 'Looking.' }, { kind: 'tool_call', callId: 'c1', name: 'hearth_text_search', input: { query: 'bread' } }] },
      { role: 'user', parts: [{ kind: 'tool_result', callId: 'c1', content: [{ kind: 'text', value: 'bread.md:3' }] }, { kind: 'text', value: 'thanks' }] },
    ];
    assert.deepEqual(lmMessagesToChat(messages), [
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'Find bread' },
      { role: 'assistant', content: 'Looking.', toolCalls: [{ id: 'c1', name: 'hearth_text_search', arguments: { query: 'bread' } }] },
      { role: 'tool', toolCallId: 'c1', name: 'hearth_text_search', content: 'bread.md:3' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  test('a message of tool results only adds no empty user message; an unknown call keeps its id as name', () => {
    const out = lmMessagesToChat([{ role: 'user', parts: [{ kind: 'tool_result', callId: 'lost', content: [{ kind: 'text', value: 'x' }] }] }]);
    assert.deepEqual(out, [{ role: 'tool', toolCallId: 'lost', name: 'lost', content: 'x' }]);
  });

  test('a tool call input that is not an object is wrapped, never dropped', () => {
    const [message] = lmMessagesToChat([{ role: 'assistant', parts: [{ kind: 'tool_call', callId: 'c', name: 't', input: 'raw' }] }]);
    assert.deepEqual((message as Extract<ChatMessage, { role: 'assistant' }>).toolCalls, [{ id: 'c', name: 't', arguments: { value: 'raw' } }]);
  });

  test('data parts: text and JSON inline, images named, VS Code markers dropped, unknown parts left out', () => {
    const [message] = lmMessagesToChat([
      {
        role: 'user',
        parts: [
          { kind: 'text', value: 'see ' },
          { kind: 'data', mimeType: 'application/json', data: bytes('{"a":1}') },
          { kind: 'data', mimeType: 'cache_control', data: bytes('ephemeral') },
          { kind: 'data', mimeType: 'image/png', data: new Uint8Array(10) },
          { kind: 'unknown' },
        ],
      },
    ]);
    assert.equal(message!.content, 'see {"a":1}[image/png data, 10 bytes, not sent: this model takes text only]');
  });

  test('a huge text data part is cut, saying how much was left out', () => {
    const text = dataPartText({ mimeType: 'text/plain', data: bytes('x'.repeat(MAX_INLINE_DATA_CHARS + 5)) })!;
    assert.ok(text.length < MAX_INLINE_DATA_CHARS + 100);
    assert.match(text, /5 more characters of text\/plain left out/);
  });
});

describe('Hearth → vscode.lm messages', () => {
  test('system leads the first user message; tool calls and results become parts; errors say so', () => {
    const out = chatMessagesToLm([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Q' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_note', arguments: { path: 'a.md' } }] },
      { role: 'tool', toolCallId: 'c1', name: 'read_note', content: 'no such note', isError: true },
    ]);
    assert.deepEqual(out, [
      { role: 'user', parts: [{ kind: 'text', value: 'S\n\nQ' }] },
      { role: 'assistant', parts: [{ kind: 'tool_call', callId: 'c1', name: 'read_note', input: { path: 'a.md' } }] },
      { role: 'user', parts: [{ kind: 'tool_result', callId: 'c1', content: [{ kind: 'text', value: 'Error: no such note' }] }] },
    ]);
  });

  test('a conversation of system text only still sends it', () => {
    assert.deepEqual(chatMessagesToLm([{ role: 'system', content: 'S' }]), [{ role: 'user', parts: [{ kind: 'text', value: 'S' }] }]);
  });

  test('round trip: Hearth → lm → Hearth keeps the conversation (system folded into the first user message)', () => {
    const conversation: ChatMessage[] = [
      { role: 'user', content: 'Q' },
      { role: 'assistant', content: 'A', toolCalls: [{ id: 'c1', name: 'list_notes', arguments: {} }] },
      { role: 'tool', toolCallId: 'c1', name: 'list_notes', content: 'a.md' },
    ];
    assert.deepEqual(lmMessagesToChat(chatMessagesToLm(conversation)), conversation);
  });
});

describe('tools and stream parts', () => {
  test('tools: schema kept, a missing one becomes an empty object schema', () => {
    assert.deepEqual(lmToolsToDefinitions([{ name: 'a', description: 'A', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }, { name: 'b', description: '' }]), [
      { name: 'a', description: 'A', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
      { name: 'b', parameters: { type: 'object', properties: {} } },
    ]);
    assert.deepEqual(lmToolsToDefinitions(undefined), []);
  });

  test('events → parts: text and tool calls; empty text, usage and stop carry none', () => {
    assert.deepEqual(chatEventToLmPart({ type: 'text', text: 'hi' }), { kind: 'text', value: 'hi' });
    assert.deepEqual(chatEventToLmPart({ type: 'tool_call', call: { id: 'c', name: 'n', arguments: { a: 1 } } }), { kind: 'tool_call', callId: 'c', name: 'n', input: { a: 1 } });
    assert.equal(chatEventToLmPart({ type: 'text', text: '' }), undefined);
    assert.equal(chatEventToLmPart({ type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } }), undefined);
    assert.equal(chatEventToLmPart({ type: 'stop', reason: 'stop' }), undefined);
  });

  test('parts → events: text, tool calls and text data; unknown parts carry none', () => {
    assert.deepEqual(lmPartToChatEvent({ kind: 'text', value: 'hi' }), { type: 'text', text: 'hi' });
    assert.deepEqual(lmPartToChatEvent({ kind: 'tool_call', callId: 'c', name: 'n', input: { a: 1 } }), { type: 'tool_call', call: { id: 'c', name: 'n', arguments: { a: 1 } } });
    assert.deepEqual(lmPartToChatEvent({ kind: 'data', mimeType: 'text/markdown', data: bytes('# h') }), { type: 'text', text: '# h' });
    assert.equal(lmPartToChatEvent({ kind: 'unknown' }), undefined);
  });

  test('token estimate grows with the text of every part kind', () => {
    assert.equal(estimateLmTokens(''), 0);
    assert.equal(estimateLmTokens('abcdefgh'), 2);
    const message: LmMessage = { role: 'user', parts: [{ kind: 'text', value: 'abcd' }, { kind: 'tool_result', callId: 'c', content: [{ kind: 'text', value: 'efgh' }] }] };
    assert.equal(estimateLmTokens(message), 2);
  });
});
