/**
 * Maps key paths back to where they are written in a TOML source, so that a schema problem can
 * point at a line and column the way a syntax error does. This is not a parser: smol-toml decides
 * what the document means; tomlScanner.ts walks the source once to find each key's first position.
 *
 * It runs on activation and on every save, so it is linear in the source: positions live in a trie of
 * key segments (each key is recorded from its table's node, never by formatting every prefix), and
 * a key path deeper than MAX_KEY_DEPTH (nested arrays, inline tables, dotted keys, headers) stops the
 * scan with a located `limit` instead of working on: no real configuration comes near it.
 */
import type { KeySegment } from './keyPath';
import { Scanner, type KeyNode, type LocatorLimit, type SourcePosition, type WrittenHeader, type WrittenKeyValue } from './tomlScanner';

export { MAX_KEY_DEPTH, type LocatorLimit, type SourcePosition, type WrittenHeader, type WrittenKeyValue } from './tomlScanner';

export class TomlLocator {
  private readonly root: KeyNode = {};
  readonly keyValues: WrittenKeyValue[] = [];
  readonly headers: WrittenHeader[] = [];
  readonly limit: LocatorLimit | undefined;
  /** Characters and key nodes visited, for tests that prove the work is linear. */
  readonly steps: number;

  constructor(source: string) {
    const scanner = new Scanner(source, this.root, this.keyValues, this.headers);
    scanner.scan();
    this.limit = scanner.limit;
    this.steps = scanner.steps;
  }

  /** Where the key (or table) is written; undefined when it is not in this file. */
  exact(segments: readonly KeySegment[]): SourcePosition | undefined {
    let node: KeyNode | undefined = this.root;
    for (const segment of segments) node = node?.children?.get(segment);
    return node?.position;
  }

  /** The key itself, else the nearest enclosing table that is written in this file. */
  nearest(segments: readonly KeySegment[]): SourcePosition | undefined {
    let node: KeyNode | undefined = this.root;
    let found: SourcePosition | undefined;
    for (const segment of segments) {
      node = node?.children?.get(segment);
      if (!node) break;
      found = node.position ?? found;
    }
    return found;
  }
}
