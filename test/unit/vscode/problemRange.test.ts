import { test } from 'node:test';
import assert from 'node:assert/strict';
import { problemRange } from '../../../src/vscode/config/problemRange';

const text = ['[chat]', 'temperature = 5', '  tempreature = 0.5', '"quoted key" = 1', '[[mcp.servers]]', 'x = [', ''].join('\n');

test('underlines the key at the problem position', () => {
  assert.deepEqual(problemRange({ line: 2, column: 1 }, text), { startLine: 1, startCharacter: 0, endLine: 1, endCharacter: 11 });
});

test('an indented key is underlined from its first character even when the column points at the indentation', () => {
  assert.deepEqual(problemRange({ line: 3, column: 1 }, text), { startLine: 2, startCharacter: 2, endLine: 2, endCharacter: 13 });
  assert.deepEqual(problemRange({ line: 3, column: 3 }, text), { startLine: 2, startCharacter: 2, endLine: 2, endCharacter: 13 });
});

test('quoted keys are one token', () => {
  assert.deepEqual(problemRange({ line: 4, column: 1 }, text), { startLine: 3, startCharacter: 0, endLine: 3, endCharacter: 12 });
});

test('a table header position underlines to the end of the header text', () => {
  assert.deepEqual(problemRange({ line: 5, column: 1 }, text), { startLine: 4, startCharacter: 0, endLine: 4, endCharacter: 15 });
});

test('a position at a value underlines the value', () => {
  assert.deepEqual(problemRange({ line: 2, column: 15 }, text), { startLine: 1, startCharacter: 14, endLine: 1, endCharacter: 15 });
});

test('positions past the end of the file are clamped to the last line; unknown text gives one character', () => {
  const clamped = problemRange({ line: 99, column: 1 }, 'a = 1\nb = 2');
  assert.equal(clamped.startLine, 1);
  assert.deepEqual(problemRange({ line: 3, column: 4 }, undefined), { startLine: 2, startCharacter: 3, endLine: 2, endCharacter: 4 });
  assert.deepEqual(problemRange({}, undefined), { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 1 });
});

test('CRLF files are measured without the carriage return', () => {
  assert.deepEqual(problemRange({ line: 2, column: 1 }, 'x = 1\r\nbad = 2\r\n'), { startLine: 1, startCharacter: 0, endLine: 1, endCharacter: 3 });
});
