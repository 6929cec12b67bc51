// The `:` commands of the chat input: what is a command, what completes to what, and ↑/↓ recall.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { complete, InputHistory, parseInput } from '../../../src/webview/commandInput';

const context = {
  agents: [
    { name: 'kiln', available: true },
    { name: 'claude-code', available: false, unavailableReason: 'not on PATH' },
  ],
  models: ['local/qwen2.5:0.5b', 'local/llama3.2:latest', 'cloud/gpt-4o-mini', 'router/openai/gpt-4o'],
};

test('parseInput: commands with and without arguments, unknown commands, and messages that only look like commands', () => {
  assert.deepEqual(parseInput(':model cloud/gpt-4o-mini'), { kind: 'command', name: 'model', arg: 'cloud/gpt-4o-mini' });
  assert.deepEqual(parseInput(':MODELS  '), { kind: 'command', name: 'models', arg: '' });
  assert.deepEqual(parseInput(':agent   kiln '), { kind: 'command', name: 'agent', arg: 'kiln' });
  assert.deepEqual(parseInput(':help'), { kind: 'command', name: 'help', arg: '' });
  assert.deepEqual(parseInput(':clear'), { kind: 'command', name: 'clear', arg: '' });
  assert.deepEqual(parseInput(':new'), { kind: 'command', name: 'new', arg: '' });
  assert.deepEqual(parseInput(':frobnicate now'), { kind: 'unknown', name: 'frobnicate' });
  assert.deepEqual(parseInput(':) thanks'), { kind: 'message', text: ':) thanks' });
  assert.deepEqual(parseInput('::model is a word'), { kind: 'message', text: ':model is a word' });
  assert.deepEqual(parseInput(' :model as a message'), { kind: 'message', text: ':model as a message' });
  assert.deepEqual(parseInput('what is\n:model?'), { kind: 'message', text: 'what is\n:model?' });
  assert.deepEqual(parseInput('   '), { kind: 'message', text: '' });
});

test('complete: command names by prefix, with descriptions; model and agent arguments', () => {
  assert.deepEqual(
    complete(':', context).map((c) => c.label),
    [':model', ':models', ':agent', ':clear', ':new', ':logout', ':help'],
  );
  assert.deepEqual(
    complete(':mo', context).map((c) => c.value),
    [':model ', ':models'],
  );
  assert.ok(complete(':he', context)[0]!.detail);
  assert.deepEqual(complete('hello', context), []);
  assert.deepEqual(complete(':zz', context), []);

  assert.equal(complete(':model ', context).length, 4);
  assert.deepEqual(
    complete(':model gpt', context).map((c) => c.value),
    [':model cloud/gpt-4o-mini', ':model router/openai/gpt-4o'],
  );
  // Prefix of the provider or of the model name ranks before a match in the middle.
  assert.deepEqual(
    complete(':model l', context).map((c) => c.label),
    ['local/qwen2.5:0.5b', 'local/llama3.2:latest', 'cloud/gpt-4o-mini'],
  );
  const agents = complete(':agent ', context);
  assert.deepEqual(
    agents.map((c) => c.value),
    [':agent kiln', ':agent claude-code'],
  );
  assert.equal(agents[1]!.detail, 'unavailable: not on PATH');
});

test('InputHistory: ↑ goes back through what was sent, ↓ returns to the draft', () => {
  const history = new InputHistory();
  assert.equal(history.recall(-1, 'draft'), undefined);
  history.push('first');
  history.push('second');
  history.push('second'); // repeated entries are kept once
  assert.equal(history.size, 2);
  assert.equal(history.recall(-1, 'my draft'), 'second');
  assert.equal(history.recall(-1, 'second'), 'first');
  assert.equal(history.recall(-1, 'first'), undefined);
  assert.equal(history.recall(1, 'first'), 'second');
  assert.equal(history.recall(1, 'second'), 'my draft');
  assert.equal(history.recall(1, 'my draft'), undefined);
});
