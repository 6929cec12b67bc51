/**
 * Where a config problem's squiggle goes. Problems carry a 1-based line/column (the key's position);
 * the diagnostic underlines the key (or the rest of the line when no key starts there). Free of the
 * `vscode` import so it is unit-testable.
 */
import type { ConfigProblem } from '../../core/config/problem';

/** A 0-based range, as vscode.Range takes it. */
export interface ZeroBasedRange {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
}

/** A TOML key token: bare key characters, dots between parts, or a quoted key. */
const KEY_TOKEN = /^(?:"[^"\n]*"|'[^'\n]*'|[A-Za-z0-9_.-])+/;

/**
 * The range to underline for `problem` in a file whose text is `text` (undefined when unreadable):
 * the key token at the position, else to the end of the line, else a single character. Positions
 * beyond the file are clamped to its last line, so a stale problem still shows somewhere sensible.
 */
export function problemRange(problem: Pick<ConfigProblem, 'line' | 'column'>, text: string | undefined): ZeroBasedRange {
  const lines = text === undefined ? undefined : text.split(/\r?\n/);
  let line = Math.max(0, (problem.line ?? 1) - 1);
  if (lines && line >= lines.length) line = Math.max(0, lines.length - 1);
  const lineText = lines?.[line] ?? '';
  let start = Math.max(0, (problem.column ?? 1) - 1);
  if (lines && start > lineText.length) start = lineText.length;
  // A position on the line's indentation (or a column the loader did not know) points at its first token.
  if (problem.column === undefined || /^\s*$/.test(lineText.slice(0, start + 1))) {
    const firstToken = lineText.search(/\S/);
    if (firstToken >= 0 && (problem.column === undefined || firstToken > start)) start = firstToken;
  }
  const rest = lineText.slice(start);
  const key = KEY_TOKEN.exec(rest);
  let end: number;
  if (key) end = start + key[0].length;
  else if (rest.trimEnd().length > 0) end = start + rest.trimEnd().length;
  else end = start + 1;
  return { startLine: line, startCharacter: start, endLine: line, endCharacter: end };
}

/**
 * Where a problem's `fix.replace` sits on its line (0-based characters): the first whole occurrence
 * at or after the problem's column, bare or inside quotes; undefined when the line no longer has it.
 */
export function fixRange(problem: Pick<ConfigProblem, 'line' | 'column' | 'fix'>, text: string | undefined): ZeroBasedRange | undefined {
  if (!problem.fix || text === undefined || problem.line === undefined) return undefined;
  const line = problem.line - 1;
  const lineText = text.split(/\r?\n/)[line];
  if (lineText === undefined) return undefined;
  const word = problem.fix.replace;
  for (let at = lineText.indexOf(word, Math.max(0, (problem.column ?? 1) - 1)); at >= 0; at = lineText.indexOf(word, at + 1)) {
    const before = lineText[at - 1];
    const after = lineText[at + word.length];
    const part = /[A-Za-z0-9_-]/;
    const whole = (before === undefined || !part.test(before)) && (after === undefined || !part.test(after));
    if (whole) return { startLine: line, startCharacter: at, endLine: line, endCharacter: at + word.length };
  }
  return undefined;
}
