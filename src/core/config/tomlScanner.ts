/**
 * The walk behind TomlLocator: one pass over a TOML source that follows table headers (`[a.b]`,
 * `[[a.b]]`, nested tables under the latest array element), dotted and quoted keys, inline tables,
 * multi-line arrays and strings well enough to record each key's first position in a trie of key
 * segments, and every `key = value` and header as written (for in-place edits). Unknown input is
 * skipped a line at a time; a key path deeper than MAX_KEY_DEPTH stops the scan with a located
 * `limit`.
 */
import type { KeySegment } from './keyPath';
import { escapeAt } from './tomlEscapes';

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

/** Deeper key paths than this are refused: the schema's deepest is 6 (`mcp.servers[0].transport.headers.X`). */
export const MAX_KEY_DEPTH = 64;

/** Where the source went past MAX_KEY_DEPTH; nothing after it is located. */
export interface LocatorLimit extends SourcePosition {
  message: string;
}

/** One key segment's node: where it is first written, its children, `[[array]]` elements opened. */
export interface KeyNode {
  position?: SourcePosition;
  children?: Map<KeySegment, KeyNode>;
  arrayCount?: number;
}

function child(node: KeyNode, segment: KeySegment): KeyNode {
  node.children ??= new Map();
  let next = node.children.get(segment);
  if (!next) node.children.set(segment, (next = {}));
  return next;
}

class DepthLimit extends Error {}

const BARE_KEY = /[A-Za-z0-9_-]+/y;

export class Scanner {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private table: KeySegment[] = [];
  private tableNode: KeyNode;
  private depth = 0;
  /** The next newline at or after the last offset asked about: offsets only grow, so each is found once. */
  private newline = -1;
  limit: LocatorLimit | undefined;
  steps = 0;

  constructor(
    private readonly src: string,
    private readonly root: KeyNode,
    private readonly keyValues: WrittenKeyValue[],
    private readonly headers: WrittenHeader[],
  ) {
    this.tableNode = root;
  }

  private lineEndFrom(offset: number): number {
    if (this.newline < offset) {
      this.newline = this.src.indexOf('\n', offset);
      this.steps += (this.newline < 0 ? this.src.length : this.newline) - offset + 1;
      if (this.newline < 0) this.newline = this.src.length;
    }
    return Math.min(this.newline + 1, this.src.length);
  }

  scan(): void {
    while (this.pos < this.src.length) {
      this.skipBlank(true);
      if (this.pos >= this.src.length) break;
      const start = this.pos;
      try {
        if (this.peek() === '[') this.header();
        else this.keyValue(this.table, this.tableNode);
      } catch (error) {
        if (error instanceof DepthLimit) {
          this.limit = { ...this.here(), message: `keys nest deeper than ${MAX_KEY_DEPTH} levels` };
          return;
        }
        // Malformed input: the syntax error is smol-toml's to report; carry on at the next line.
      }
      if (this.pos === start) this.skipLine();
    }
  }

  /** Records `segment` under `node` at the current position (first appearance wins). */
  private record(node: KeyNode, segment: KeySegment, depth: number, position = this.here()): KeyNode {
    if (depth > MAX_KEY_DEPTH) throw new DepthLimit();
    this.steps++;
    const next = child(node, segment);
    next.position ??= position;
    return next;
  }

  private here(): SourcePosition {
    return { line: this.line, column: this.pos - this.lineStart + 1 };
  }

  private peek(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  private advance(count = 1): void {
    this.steps += count;
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
    let node = this.root;
    keys.forEach((key, i) => {
      resolved.push(key);
      node = this.record(node, key, resolved.length, position);
      const count = node.arrayCount;
      const isLast = i === keys.length - 1;
      if (isLast && isArray) {
        const index = count ?? 0;
        node.arrayCount = index + 1;
        resolved.push(index);
        node = this.record(node, index, resolved.length, position);
      } else if (count !== undefined) {
        resolved.push(count - 1);
        node = this.record(node, count - 1, resolved.length, position);
      }
    });
    this.table = resolved;
    this.tableNode = node;
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
        BARE_KEY.lastIndex = this.pos;
        const match = BARE_KEY.exec(this.src);
        if (!match) throw new Error('not a key');
        segments.push(match[0]);
        this.advance(match[0].length);
      }
      if (segments.length > MAX_KEY_DEPTH) throw new DepthLimit();
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
        // Recorded under the key's real name (`"\u00c0"` is the key À), as the parsed document has it.
        const [text, length] = escapeAt(this.src, this.pos);
        out += text;
        this.advance(length);
      } else {
        out += this.peek();
        this.advance();
      }
    }
    this.advance();
    return out;
  }

  private keyValue(table: KeySegment[], tableNode: KeyNode): void {
    const position = this.here();
    const keys = this.key();
    if (table.length + keys.length > MAX_KEY_DEPTH) throw new DepthLimit();
    const path = [...table, ...keys];
    let node = tableNode;
    keys.forEach((key, i) => (node = this.record(node, key, table.length + i + 1, position)));
    this.skipBlank(false);
    if (this.peek() !== '=') throw new Error('expected =');
    this.advance();
    this.skipBlank(false);
    const valueStart = this.pos;
    this.depth++;
    try {
      this.value(path, node);
    } finally {
      this.depth--;
    }
    let valueEnd = this.pos;
    while (valueEnd > valueStart && /[ \t\r]/.test(this.src[valueEnd - 1])) valueEnd--;
    this.keyValues.push({ path, table, valueStart, valueEnd, lineEnd: this.lineEndFrom(this.pos), nested: this.depth > 0 });
  }

  private value(path: KeySegment[], node: KeyNode): void {
    const c = this.peek();
    if (c === '"' || c === "'") this.string(c);
    else if (c === '[') this.array(path, node);
    else if (c === '{') this.inlineTable(path, node);
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

  private array(path: KeySegment[], node: KeyNode): void {
    this.advance();
    for (let index = 0; ; index++) {
      this.skipBlank(true);
      if (this.pos >= this.src.length) return;
      if (this.peek() === ']') {
        this.advance();
        return;
      }
      const before = this.pos;
      const element = this.record(node, index, path.length + 1);
      this.value([...path, index], element);
      this.skipBlank(true);
      if (this.peek() === ',') this.advance();
      else if (this.peek() !== ']' && this.pos === before) throw new Error('stuck in array');
    }
  }

  private inlineTable(path: KeySegment[], node: KeyNode): void {
    this.advance();
    for (;;) {
      this.skipBlank(true);
      if (this.pos >= this.src.length) return;
      if (this.peek() === '}') {
        this.advance();
        return;
      }
      this.keyValue(path, node);
      this.skipBlank(true);
      if (this.peek() === ',') this.advance();
    }
  }
}
