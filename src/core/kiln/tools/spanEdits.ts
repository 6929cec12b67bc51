import { KilnToolError } from './kilnToolErrors';

/** One exact replacement: `old` must occur exactly once in the note. */
export interface SpanEdit {
  old: string;
  new: string;
}

const MAX_LISTED = 10;

/**
 * Applies exact-span replacements to a note's text. Every `old` is looked up in the text as it is
 * before any edit, must occur exactly once and must not overlap another edit's span: a model that
 * names text ambiguously gets every place listed (line and the line's text) and changes nothing.
 * A note with CRLF line endings matches `old` written with LF and keeps CRLF; a byte order mark
 * stays where it is.
 */
export function applySpanEdits(path: string, text: string, edits: readonly SpanEdit[]): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? text.slice(1) : text;
  const crlf = body.includes('\r\n');
  const spans: { start: number; end: number; text: string; index: number }[] = [];
  edits.forEach((edit, index) => {
    if (edit.old === '') throw new KilnToolError('kiln.invalid_arguments', `Edit ${index + 1} has an empty "old": give the exact text to replace`);
    const old = crlf ? toCrlf(edit.old) : edit.old;
    const replacement = crlf ? toCrlf(edit.new) : edit.new;
    const found = occurrences(body, old);
    if (found.length === 0) {
      throw new KilnToolError('kiln.edit_no_match', `Edit ${index + 1}: the text to replace was not found in ${path}. Read the note again (read_note) and copy the text exactly, whitespace included; nothing was changed.`);
    }
    if (found.length > 1) {
      const listed = found.slice(0, MAX_LISTED).map((at) => `  line ${lineOf(body, at)}: ${lineText(body, at)}`).join('\n');
      throw new KilnToolError(
        'kiln.edit_ambiguous',
        `Edit ${index + 1}: the text to replace occurs ${found.length} times in ${path}; include more of the surrounding text so it occurs once. Nothing was changed. Matches:\n${listed}${found.length > MAX_LISTED ? `\n  … and ${found.length - MAX_LISTED} more` : ''}`,
      );
    }
    spans.push({ start: found[0], end: found[0] + old.length, text: replacement, index });
  });
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i].start < spans[i - 1].end) throw new KilnToolError('kiln.invalid_arguments', `Edits ${spans[i - 1].index + 1} and ${spans[i].index + 1} overlap in ${path}; merge them into one edit. Nothing was changed.`);
  }
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += body.slice(at, span.start) + span.text;
    at = span.end;
  }
  return bom + out + body.slice(at);
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** Start offsets of `needle` in `haystack`, overlapping ones included (two overlapping matches are still two). */
function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    out.push(at);
    if (out.length > 1000) break;
  }
  return out;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function lineText(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '').trim().slice(0, 160);
}
