import type { ParsedNote } from '../kiln/note';

export interface Chunk {
  notePath: string;
  /** Headings enclosing the chunk, outermost first. */
  headingPath: string[];
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  text: string;
}

export interface ChunkOptions {
  /** Upper bound of a chunk's length in characters; longer sections split on paragraph boundaries. */
  maxChars?: number;
}

const DEFAULT_MAX_CHARS = 2000;

/**
 * Splits a note into heading sections (one chunk per section, with its heading path); a section
 * longer than maxChars is split on blank lines, and a single paragraph longer than that by lines,
 * then by characters (code points, so surrogate pairs are never cut).
 */
export function chunkNote(note: ParsedNote, options: ChunkOptions = {}): Chunk[] {
  if (note.skipped) return [];
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const chunks: Chunk[] = [];
  const stack: { level: number; text: string }[] = [];
  const headingAt = new Map(note.headings.map((h) => [h.line, h]));
  let sectionStart = note.bodyStartLine;
  let path: string[] = [];

  const flush = (endLine: number): void => {
    if (endLine >= sectionStart) splitSection(note, path, sectionStart, endLine, maxChars, chunks);
  };
  for (let line = note.bodyStartLine; line <= note.lines.length; line++) {
    const h = headingAt.get(line);
    if (!h) continue;
    // A heading with nothing under it but subsections (`## Problems` then `### Blight`) is not a
    // chunk of its own — a bare heading only crowds search results. Its line joins the first
    // subsection's chunk, whose heading path names it anyway.
    const parent = stack[stack.length - 1];
    const onlyHeading = parent !== undefined && headingAt.has(sectionStart) && note.lines.slice(sectionStart, line - 1).every((text, i) => text.trim() === '' || headingAt.has(sectionStart + 1 + i));
    if (!(onlyHeading && h.level > parent.level)) {
      flush(line - 1);
      sectionStart = line;
    }
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    stack.push({ level: h.level, text: h.text });
    path = stack.map((s) => s.text);
  }
  flush(note.lines.length);
  return chunks;
}

function splitSection(note: ParsedNote, headingPath: string[], start: number, end: number, maxChars: number, out: Chunk[]): void {
  // Trim blank lines at both ends so line ranges point at content.
  while (start <= end && note.lines[start - 1].trim() === '') start++;
  while (end >= start && note.lines[end - 1].trim() === '') end--;
  if (start > end) return;
  let pieceStart = start;
  let size = 0;
  const emit = (from: number, to: number): void => {
    while (to >= from && note.lines[to - 1].trim() === '') to--;
    while (from <= to && note.lines[from - 1].trim() === '') from++;
    if (from > to) return;
    const text = note.lines.slice(from - 1, to).join('\n');
    if ([...text].length <= maxChars) {
      out.push({ notePath: note.path, headingPath, startLine: from, endLine: to, text });
      return;
    }
    if (from < to) {
      // One paragraph too long: split by lines.
      let s = from;
      let acc = 0;
      for (let l = from; l <= to; l++) {
        const len = [...note.lines[l - 1]].length + 1;
        if (acc > 0 && acc + len > maxChars) {
          emit(s, l - 1);
          s = l;
          acc = 0;
        }
        acc += len;
      }
      if (s === from && acc > maxChars) splitLongLine(note, headingPath, from, to, maxChars, out);
      else emit(s, to);
      return;
    }
    splitLongLine(note, headingPath, from, to, maxChars, out);
  };
  for (let line = start; line <= end; line++) {
    const text = note.lines[line - 1];
    const len = [...text].length + 1;
    const paragraphBreak = text.trim() === '';
    if (paragraphBreak && size + len > maxChars && line > pieceStart) {
      emit(pieceStart, line - 1);
      pieceStart = line + 1;
      size = 0;
      continue;
    }
    size += len;
  }
  emit(pieceStart, end);
}

function splitLongLine(note: ParsedNote, headingPath: string[], from: number, to: number, maxChars: number, out: Chunk[]): void {
  const chars = [...note.lines.slice(from - 1, to).join('\n')];
  for (let i = 0; i < chars.length; i += maxChars) {
    out.push({ notePath: note.path, headingPath, startLine: from, endLine: to, text: chars.slice(i, i + maxChars).join('') });
  }
}
