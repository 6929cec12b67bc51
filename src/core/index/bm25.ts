import type { ChunkRecord } from './store/vectorStore.js';

const TOKEN = /[\p{L}\p{N}]+/gu;

/** Lower-cased words and numbers (any script); the same split for chunks and queries. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/**
 * Okapi BM25 over chunk texts (with their title and heading path, which often carry the words a
 * query uses). Built once per index version; postings are typed arrays so 100k chunks stay small.
 */
export class Bm25Index {
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly lengths: Float32Array;
  private readonly avgLength: number;

  constructor(
    private readonly docs: readonly ChunkRecord[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.lengths = new Float32Array(docs.length);
    let total = 0;
    docs.forEach((doc, i) => {
      const tokens = tokenize(`${doc.title} ${doc.headingPath.join(' ')} ${doc.text}`);
      this.lengths[i] = tokens.length;
      total += tokens.length;
      const counts = new Map<string, number>();
      for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [term, tf] of counts) {
        let posting = this.postings.get(term);
        if (!posting) this.postings.set(term, (posting = { docs: [], tfs: [] }));
        posting.docs.push(i);
        posting.tfs.push(tf);
      }
    });
    this.avgLength = docs.length > 0 ? total / docs.length : 0;
  }

  get size(): number {
    return this.docs.length;
  }

  /** Best `k` chunks for the query's words, best first; chunks sharing no word are not returned. */
  search(query: string, k: number, filter?: (chunk: ChunkRecord) => boolean): { chunk: ChunkRecord; score: number }[] {
    const n = this.docs.length;
    const scores = new Map<number, number>();
    for (const term of new Set(tokenize(query))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const df = posting.docs.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let j = 0; j < posting.docs.length; j++) {
        const doc = posting.docs[j];
        const tf = posting.tfs[j];
        const norm = tf + this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / (this.avgLength || 1));
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / norm);
      }
    }
    const ranked = [...scores].filter(([doc]) => !filter || filter(this.docs[doc]));
    ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return ranked.slice(0, k).map(([doc, score]) => ({ chunk: this.docs[doc], score }));
  }
}
