import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BoundedLineSplitter } from '../../../../src/core/agents/acp/connection/boundedLines';

function splitter(max: number) {
  const lines: string[] = [];
  let oversized = 0;
  let peak = 0;
  const s = new BoundedLineSplitter(max, (line) => lines.push(line.toString()), () => oversized++);
  const push = (text: string) => {
    s.push(Buffer.from(text));
    peak = Math.max(peak, s.buffered);
  };
  return { s, lines, push, oversized: () => oversized, peak: () => peak };
}

describe('BoundedLineSplitter', () => {
  test('lines split across chunks and several lines per chunk', () => {
    const t = splitter(100);
    t.push('{"a":');
    t.push('1}\n{"b":2}\n{"c"');
    t.push(':3}\n');
    assert.deepEqual(t.lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  test('a line over the limit is reported once, never held beyond the limit, and the next line is read', () => {
    const t = splitter(1000);
    t.push('start');
    for (let i = 0; i < 500; i++) t.push('x'.repeat(1000));
    t.push('end\nnext\n');
    assert.equal(t.oversized(), 1);
    assert.ok(t.peak() <= 1000, `held ${t.peak()} bytes`);
    assert.deepEqual(t.lines, ['next']);
  });

  test('exactly the limit passes; one byte more does not', () => {
    const t = splitter(10);
    t.push('0123456789\n01234567890\nok\n');
    assert.deepEqual(t.lines, ['0123456789', 'ok']);
    assert.equal(t.oversized(), 1);
  });

  test('a last line without a newline is delivered at end', () => {
    const t = splitter(10);
    t.push('a\nlast');
    t.s.end();
    assert.deepEqual(t.lines, ['a', 'last']);
  });
});
