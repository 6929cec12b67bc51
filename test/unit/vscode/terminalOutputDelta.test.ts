// The agent terminal mirror appends only what is new in each `terminal` event's output tail.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outputDelta, toTerminalText } from '../../../src/vscode/chat/terminalOutputDelta';

test('growing output: only the new part; the same event again: nothing', () => {
  assert.deepEqual(outputDelta('', 'line 1\n'), { text: 'line 1\n', cut: false });
  assert.deepEqual(outputDelta('line 1\n', 'line 1\nline 2\n'), { text: 'line 2\n', cut: false });
  assert.deepEqual(outputDelta('line 1\nline 2\n', 'line 1\nline 2\n'), { text: '', cut: false });
});

test('a tail whose head was cut (outputByteLimit): the part after the lines seen before', () => {
  const before = Array.from({ length: 100 }, (_, i) => `row ${i}\n`).join('');
  const after = before.slice(300) + 'row 100\nrow 101\n';
  assert.deepEqual(outputDelta(before, after), { text: 'row 100\nrow 101\n', cut: false });
});

test('nothing in common (more output than the limit arrived at once): all of it, marked as cut', () => {
  assert.deepEqual(outputDelta('old output\n', 'entirely new\n'), { text: 'entirely new\n', cut: true });
});

test('line ends become CRLF once (a CRLF is not doubled)', () => {
  assert.equal(toTerminalText('a\nb\r\nc'), 'a\r\nb\r\nc');
});
