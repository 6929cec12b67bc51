import { setImmediate as nextTurn } from 'node:timers/promises';
import { TermList } from './termList';

/** Lookups in an unmapped term list before the map is built after all (a pasted page is a long query). */
const MAX_SCANS = 32;
/** Terms mapped between two turns of the event loop. */
const MAP_SLICE = 10_000;

/**
 * A lexical index's term → id (ids in the order terms were first seen). An index loaded from its
 * file keeps the file's term list (its text, TermList) and maps it only when it must: a cold `hearth search` looks up a
 * few query words (a scan of the list each), while mapping every term took ~5 ms at 19k terms. A
 * note added, a snapshot taken or more than a few lookups map it; the editor maps it in slices
 * after opening (mapInSlices), so no later save stalls on it.
 */
export class TermDictionary {
  private map?: Map<string, number>;
  private scans = 0;
  /** The id a new term gets: past every listed one, even where a term was listed twice. */
  private next: number;
  /** The list named a term twice (a file Hearth did not write): found when it is mapped. */
  private twice = false;

  constructor(private listed: TermList = TermList.of([])) {
    this.next = listed.length;
    if (listed.length === 0) this.map = new Map();
  }

  /** True once mapping found a term listed twice: the file it came from is not Hearth's and wants rebuilding. */
  get duplicates(): boolean {
    return this.twice;
  }

  get size(): number {
    return this.map?.size ?? this.listed.length;
  }

  get(term: string): number | undefined {
    if (this.map) return this.map.get(term);
    if (++this.scans > MAX_SCANS) return this.mapped().get(term);
    const id = this.listed.indexOf(term);
    return id < 0 ? undefined : id;
  }

  /** The term's id, a new one (the next) for a term not seen before. */
  idOf(term: string): number {
    const map = this.mapped();
    let id = map.get(term);
    if (id === undefined) map.set(term, (id = this.next++));
    return id;
  }

  /** Terms with their ids, in id order. */
  entries(): IterableIterator<[string, number]> {
    return this.mapped().entries();
  }

  keys(): IterableIterator<string> {
    return this.mapped().keys();
  }

  /** Maps the list in slices between turns of the event loop (the editor, after opening a large index). */
  async mapInSlices(signal?: AbortSignal): Promise<void> {
    if (this.map) return;
    const map = new Map<string, number>();
    const terms = this.listed;
    for (let from = 0; from < terms.length; from += MAP_SLICE) {
      if (from > 0) await nextTurn();
      signal?.throwIfAborted();
      // Mapped meanwhile (a note added between two slices): that map is the one.
      if (this.map) return;
      mapTerms(map, terms, from, Math.min(terms.length, from + MAP_SLICE));
    }
    this.adopt(map);
  }

  private mapped(): Map<string, number> {
    if (this.map) return this.map;
    const map = new Map<string, number>();
    mapTerms(map, this.listed, 0, this.listed.length);
    return this.adopt(map);
  }

  private adopt(map: Map<string, number>): Map<string, number> {
    if (this.map) return this.map;
    // A term listed twice: the last listing won in the map, the scan finds the first. The first it is,
    // so ids never change with mapping (a second pass in a case no file Hearth wrote has).
    if (map.size !== this.listed.length) {
      this.twice = true;
      map = new Map();
      for (let id = 0; id < this.listed.length; id++) {
        const term = this.listed.at(id);
        if (!map.has(term)) map.set(term, id);
      }
    }
    this.map = map;
    this.listed = TermList.of([]);
    return map;
  }
}

/** term → id for ids in [from, to): a small function, so V8 optimizes the hot loop alone, quickly. */
function mapTerms(map: Map<string, number>, terms: TermList, from: number, to: number): void {
  for (let id = from; id < to; id++) map.set(terms.at(id), id);
}
