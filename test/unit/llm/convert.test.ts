// Pure message/tool/stream conversions for the three wire formats.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAiStreamAssembler, toOpenAiMessages, toOpenAiTools } from '../../../src/core/llm/openaiConvert';
import { AnthropicStreamAssembler, toAnthropicMessages, toAnthropicTools } from '../../../src/core/llm/anthropicConvert';
import { OllamaStreamAssembler, toOllamaMessages } from '../../../src/core/llm/ollamaConvert';
import { parseToolArguments } from '../../../src/core/llm/toolArguments';
import type { ChatMessage, ToolDefinition } from '../../../src/core/llm/types';

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Find my notes on bread' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'text_search', arguments: { query: 'bread' } }, { id: 'c2', name: 'list_notes', arguments: {} }] },
  { role: 'tool', toolCallId: 'c1', name: 'text_search', content: 'bread.md' },
  { role: 'tool', toolCallId: 'c2', name: 'list_notes', content: 'no such folder', isError: true },
  { role: 'user', content: 'thanks' },
];
const tool: ToolDefinition = { name: 'text_search', description: 'Search', parameters: { type: 'object', properties: { query: { type: 'string' } } } };

describe('OpenAI wire', () => {
  test('messages: tool calls carry JSON arguments and null content; results carry the id', () => {
    const wire = toOpenAiMessages(conversation);
    assert.deepEqual(wire[2], {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'text_search', arguments: '{"query":"bread"}' } },
        { id: 'c2', type: 'function', function: { name: 'list_notes', arguments: '{}' } },
      ],
    });
    assert.deepEqual(wire[3], { role: 'tool', tool_call_id: 'c1', content: 'bread.md' });
    assert.deepEqual(wire[4], { role: 'tool', tool_call_id: 'c2', content: 'Error: no such folder' });
    assert.deepEqual(toOpenAiTools([tool])[0], { type: 'function', function: { name: 'text_search', description: 'Search', parameters: tool.parameters } });
  });

  test('stream: fragments of two tool calls are joined and parsed; usage and stop follow', () => {
    const a = new OpenAiStreamAssembler();
    const chunk = (delta: object, finish: string | null = null) => ({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] }) as never;
    const events = [
      ...a.push(chunk({ content: 'Let me look. ' })),
      ...a.push(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'text_search', arguments: '{"que' } }] })),
      ...a.push(chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'list_notes', arguments: '' } }] })),
      ...a.push(chunk({ tool_calls: [{ index: 0, function: { arguments: 'ry":"bread"}' } }] })),
      ...a.push(chunk({}, 'tool_calls')),
      ...a.push({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } } as never),
      ...a.finishEvents(),
    ];
    assert.deepEqual(events, [
      { type: 'text', text: 'Let me look. ' },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 3 } },
      { type: 'tool_call', call: { id: 'a', name: 'text_search', arguments: { query: 'bread' } } },
      { type: 'tool_call', call: { id: 'b', name: 'list_notes', arguments: {} } },
      { type: 'stop', reason: 'tool_calls', raw: 'tool_calls' },
    ]);
  });

  test('a server that says "stop" beside tool calls still reports tool_calls', () => {
    const a = new OpenAiStreamAssembler();
    a.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 't', arguments: '{}' } }] }, finish_reason: 'stop' }] } as never);
    assert.equal((a.finishEvents().at(-1) as { reason: string }).reason, 'tool_calls');
  });
});

describe('cloud_b wire', () => {
  test('system moves to the top; results become user tool_result blocks merged into one turn', () => {
    const { system, messages } = toAnthropicMessages(conversation);
    assert.equal(system, 'You are terse.');
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.deepEqual(messages[1].content, [
      { type: 'tool_use', id: 'c1', name: 'text_search', input: { query: 'bread' } },
      { type: 'tool_use', id: 'c2', name: 'list_notes', input: {} },
    ]);
    assert.deepEqual(messages[2].content, [
      { type: 'tool_result', tool_use_id: 'c1', content: 'bread.md' },
      { type: 'tool_result', tool_use_id: 'c2', content: 'no such folder', is_error: true },
      { type: 'text', text: 'thanks' },
    ]);
    assert.deepEqual(toAnthropicTools([tool])[0], { name: 'text_search', description: 'Search', input_schema: tool.parameters });
  });

  test('stream: text deltas, tool input JSON deltas, usage from start and delta, stop', () => {
    const a = new AnthropicStreamAssembler();
    const events = [
      { type: 'message_start', message: { usage: { input_tokens: 20, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hmm' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'tu1', name: 'text_search', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"query":' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"bread"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 17 } },
      { type: 'message_stop' },
    ].flatMap((e) => a.push(e as never));
    assert.deepEqual([...events, ...a.finishEvents()], [
      { type: 'text', text: 'Hmm' },
      { type: 'tool_call', call: { id: 'tu1', name: 'text_search', arguments: { query: 'bread' } } },
      { type: 'usage', usage: { inputTokens: 20, outputTokens: 17 } },
      { type: 'stop', reason: 'tool_calls', raw: 'tool_use' },
    ]);
  });
});

describe('local runner wire', () => {
  test('messages: tool calls keep object arguments; results carry tool_name', () => {
    const wire = toOllamaMessages(conversation);
    assert.deepEqual(wire[2], { role: 'assistant', content: '', tool_calls: [{ function: { name: 'text_search', arguments: { query: 'bread' } } }, { function: { name: 'list_notes', arguments: {} } }] });
    assert.deepEqual(wire[3], { role: 'tool', content: 'bread.md', tool_name: 'text_search' });
    assert.deepEqual(wire[4], { role: 'tool', content: 'Error: no such folder', tool_name: 'list_notes' });
  });

  test('stream: ids are generated for tool calls; the done part gives usage and stop', () => {
    let n = 0;
    const a = new OllamaStreamAssembler(() => `id${++n}`);
    const events = [
      ...a.push({ message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'text_search', arguments: { query: 'bread' } } }] }, done: false } as never),
      ...a.push({ message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 30, eval_count: 5 } as never),
    ];
    assert.deepEqual(events, [
      { type: 'tool_call', call: { id: 'id1', name: 'text_search', arguments: { query: 'bread' } } },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 5 } },
      { type: 'stop', reason: 'tool_calls', raw: 'stop' },
    ]);
  });
});

test('tool arguments: objects pass, JSON text is parsed, broken JSON is kept raw', () => {
  assert.deepEqual(parseToolArguments({ a: 1 }), { a: 1 });
  assert.deepEqual(parseToolArguments('{"a":1}'), { a: 1 });
  assert.deepEqual(parseToolArguments(''), {});
  assert.deepEqual(parseToolArguments('{"a":'), { _raw: '{"a":' });
  assert.deepEqual(parseToolArguments('[1]'), { _raw: '[1]' });
});
