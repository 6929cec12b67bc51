/**
 * Maps key paths back to where they are written in a TOML source, so that a schema problem can
 * point at a line and column the way a syntax error does. This is not a parser: smol-toml decides
 * what the document means; this scanner only needs to follow table headers (`[a.b]`, `[[a.b]]`,
 * nested tables under the latest array element), dotted and quoted keys, inline tables, multi-line
 * arrays and strings well enough to find each key's first position. Unknown input is skipped a
 * line at a time.
 */
import { formatKeyPath, type KeySegment } from './keyPath';

export interface SourcePosition {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** A `key = value` as written: offsets into the source, for in-place edits. */
export interface WrittenKeyValue {
  path: KeySegment[];
  /** The table the line belongs to (`[header]` path, or [] for the root). */
  table: KeySegment[];
  valueStart: number;
  valueEnd: number;
  /** Offset just after the line the value ends on (after its comment and newline). */
  lineEnd: number;
  /** True inside an inline table or array. */
  nested: boolean;
}

export interface WrittenHeader {
  path: KeySegment[];
  isArray: boolean;
  start: number;
  lineEnd: number;
}

export class TomlLocator {
  private readonly positions = new Map<string, SourcePosition>();
  readonly keyValues: WrittenKeyValue[] = [];
  readonly headers: WrittenHeader[] = [];

  constructor(source: string) {
    new Scanner(source, this.keyValues, this.headers, (segments, position) => {
      // Every prefix is recorded too, at its first appearance: a table defined only through
      // dotted keys is then located at its first key.
      for (let i = 1; i <= segments.length; i++) {
        const key = formatKeyPath(segments.slice(0, i));
        if (!this.positions.has(key)) this.positions.set(key, position);
      }
    }).scan();
  }

  /** Where the key (or table) is written; undefined when it is not in this file. */
  exact(segments: readonly KeySegment[]): SourcePosition | undefined {
    return this.positions.get(formatKeyPath(segments));
  }

  /** The key itself, else the nearest enclosing table that is written in this file. */
  nearest(segments: readonly KeySegment[]): SourcePosition | undefined {
    for (let n = segments.length; n > 0; n--) {
      const found = this.positions.get(formatKeyPath(segments.slice(0, n)));
      if (found) return found;
    }
    return undefined;
  }
}

type Record_ = (segments: KeySegment[], position: SourcePosition) => void;

class Scanner {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private table: KeySegment[] = [];
  /** How many `[[path]]` elements have been opened so far, per formatted path. */
  private readonly arrayCounts = new Map<string, number>();

  private depth = 0;

  constructor(
    private readonly src: string,
    private readonly keyValues: WrittenKeyValue[],
    private readonly headers: WrittenHeader[],
    private readonly record: Record_,
  ) {}

  private lineEndFrom(offset: number): number {
    const newline = this.src.indexOf('\n', offset);
    return newline < 0 ? this.src.length : newline + 1;
  }

  scan(): void {
    while (this.pos < this.src.length) {
      this.skipBlank(true);
      if (this.pos >= this.src.length) break;
      const start = this.pos;
      try {
        if (this.peek() === '[') this.header();
        else this.keyValue(this.table);
      } catch {
        // Malformed input: the syntax error is smol-toml's to report; carry on at the next line.
      }
      if (this.pos === start) this.skipLine();
    }
  }

  private here(): SourcePosition {
    return { line: this.line, column: this.pos - this.lineStart + 1 };
  }

  private peek(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  private advance(count = 1): void {
    for (let i = 0; i < count && this.pos < this.src.length; i++) {
      if (this.src[this.pos] === '\n') {
        this.line++;
        this.lineStart = this.pos + 1;
      }
      this.pos++;
    }
  }

  /** Skips spaces, tabs and comments; newlines too when `newlines`. */
  private skipBlank(newlines: boolean): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) this.advance();
      else if (c === '#') while (this.pos < this.src.length && this.peek() !== '\n') this.advance();
      else return;
    }
  }

  private skipLine(): void {
    while (this.pos < this.src.length && this.peek() !== '\n') this.advance();
    this.advance();
  }

  private header(): void {
    const position = this.here();
    const isArray = this.peek(1) === '[';
    this.advance(isArray ? 2 : 1);
    const keys = this.key();
    this.skipBlank(false);
    if (this.peek() === ']') this.advance(isArray ? 2 : 1);
    // Tables written under an array of tables refer to its latest element.
    const resolved: KeySegment[] = [];
    keys.forEach((key, i) => {
      resolved.push(key);
      const count = this.arrayCounts.get(formatKeyPath(resolved));
      const isLast = i === keys.length - 1;
      if (isLast && isArray) {
        const index = count ?? 0;
        this.arrayCounts.set(formatKeyPath(resolved), index + 1);
        resolved.push(index);
      } else if (count !== undefined) {
        resolved.push(count - 1);
      }
    });
    this.table = resolved;
    this.record(resolved, position);
    this.headers.push({ path: resolved, isArray, start: this.lineStart, lineEnd: this.lineEndFrom(this.pos) });
    this.skipLine();
  }

  /** A dotted key; returns its segments. */
  private key(): string[] {
    const segments: string[] = [];
    for (;;) {
      this.skipBlank(false);
      const c = this.peek();
      if (c === '"' || c === "'") segments.push(this.quotedKey(c));
      else {
        const match = /^[A-Za-z0-9_-]+/.exec(this.src.slice(this.pos, this.pos + 256));
        if (!match) throw new Error('not a key');
        segments.push(match[0]);
        this.advance(match[0].length);
      }
      this.skipBlank(false);
      if (this.peek() !== '.') return segments;
      this.advance();
    }
  }

  private quotedKey(quote: string): string {
    this.advance();
    let out = '';
    while (this.pos < this.src.length && this.peek() !== quote && this.peek() !== '\n') {
      if (quote === '"' && this.peek() === '\\') {
        out += this.peek(1);
        this.advance(2);
      } else {
        out += this.peek();
        this.advance();
      }
    }
    this.advance();
    return out;
  }

  private keyValue(table: KeySegment[]): void {
    const position = this.here();
    const keys = this.key();
    const path = [...table, ...keys];
    this.record(path, position);
    this.skipBlank(false);
    if (this.peek() !== '=') throw new Error('expected =');
    this.advance();
    this.skipBlank(false);
    const valueStart = this.pos;
    this.depth++;
    try {
      this.value(path);
    } finally {
      this.depth--;
    }
    let valueEnd = this.pos;
    while (valueEnd > valueStart && /[ \t\r]/.test(this.src[valueEnd - 1])) valueEnd--;
    this.keyValues.push({ path, table, valueStart, valueEnd, lineEnd: this.lineEndFrom(this.pos), nested: this.depth > 0 });
  }

  private value(path: KeySegment[]): void {
    const c = this.peek();
    if (c === '"' || c === "'") this.string(c);
    else if (c === '[') this.array(path);
    else if (c === '{') this.inlineTable(path);
    else while (this.pos < this.src.length && !/[,\]}\n#]/.test(this.peek())) this.advance();
  }

  private string(quote: string): void {
    const triple = quote.repeat(3);
    if (this.src.startsWith(triple, this.pos)) {
      this.advance(3);
      while (this.pos < this.src.length && !this.src.startsWith(triple, this.pos)) this.advance(quote === '"' && this.peek() === '\\' ? 2 : 1);
      this.advance(3);
      // A closing delimiter may carry up to two more quotes that belong to the content.
      while (this.peek() === quote) this.advance();
      return;
    }
    this.advance();
    while (this.pos < this.src.length && this.peek() !== quote && this.peek() !== '\n') this.advance(quote === '"' && this.peek() === '\\' ? 2 : 1);
    if (this.peek() === quote) this.advance();
  }

  private array(path: KeySegment[]): void {
    this.advance();
    for (let index = 0; ; index++) {
      this.skipBlank(true);
      if (this.pos >= this.src.length) return;
      if (this.peek() === ']') {
        this.advance();
        return;
      }
      const before = this.pos;
      this.record([...path, index], this.here());
      this.value([...path, index]);
      this.skipBlank(true);
      if (this.peek() === ',') this.advance();
      else if (this.peek() !== ']' && this.pos === before) throw new Error('stuck in array');
    }
  }

  private inlineTable(path: KeySegment[]): void {
    this.advance();
    for (;;) {
      this.skipBlank(true);
      if (this.pos >= this.src.length) return;
      if (this.peek() === '}') {
        this.advance();
        return;
      }
      this.keyValue(path);
      this.skipBlank(true);
      if (this.peek() === ',') this.advance();
    }
  }
}
