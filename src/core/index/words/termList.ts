/**
 * A lexical index's terms in id order, kept as the newline-joined text the lexical file stores. A
 * cold `hearth search` looks up a few words (one indexOf over the text each); splitting the text
 * into a string per term (19k of them at 557 notes: ~4 ms and as much again for the garbage
 * collector) waits until the whole dictionary is mapped.
 */
export class TermList implements Iterable<string> {
  /** The text between two newlines: `\n${term}\n` finds a whole term. */
  private readonly padded: string;

  private constructor(
    /** The terms joined by newlines (a term never holds one: the tokenizer splits on whitespace). */
    readonly text: string,
    /** Where each term starts in `text`. */
    private readonly starts: Uint32Array,
  ) {
    this.padded = `\n${text}\n`;
  }

  static of(terms: readonly string[]): TermList {
    const starts = new Uint32Array(terms.length);
    let at = 0;
    terms.forEach((term, id) => {
      starts[id] = at;
      at += term.length + 1;
    });
    return new TermList(terms.join('\n'), starts);
  }

  /** The list the text holds, which must be `count` terms (a lexical file's header says how many). */
  static parse(text: string, count: number): TermList {
    if (count === 0) {
      if (text.length > 0) throw new Error('more terms than its header says');
      return new TermList('', new Uint32Array(0));
    }
    const starts = new Uint32Array(count);
    if (lineStarts(text, starts) !== count) throw new Error('the term count differs from its header');
    return new TermList(text, starts);
  }

  get length(): number {
    return this.starts.length;
  }

  at(id: number): string {
    const end = id + 1 < this.starts.length ? this.starts[id + 1] - 1 : this.text.length;
    return this.text.slice(this.starts[id], end);
  }

  /** The id of the term's first listing, or -1. */
  indexOf(term: string): number {
    if (this.starts.length === 0 || term.includes('\n')) return -1;
    const found = this.padded.indexOf(`\n${term}\n`);
    return found < 0 ? -1 : idAt(this.starts, found);
  }

  includes(term: string): boolean {
    return this.indexOf(term) >= 0;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let id = 0; id < this.starts.length; id++) yield this.at(id);
  }
}

/** Fills `starts` with where each line of `text` starts; the number of lines (a small hot loop, optimized alone). */
function lineStarts(text: string, starts: Uint32Array): number {
  let lines = 0;
  for (let at = 0; ; ) {
    if (lines === starts.length) return lines + 1;
    starts[lines++] = at;
    const newline = text.indexOf('\n', at);
    if (newline < 0) return lines;
    at = newline + 1;
  }
}

/** The id whose term starts at `offset` of the text (one does: `offset` follows a newline or is 0). */
function idAt(starts: Uint32Array, offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}
