import { FIELDS } from './noteFields';

const F = FIELDS.length;

/** A build's postings in note order (term id and its counts per field), in typed arrays that grow. */
export class PendingPostings {
  private terms = new Uint32Array(1 << 12);
  private counts = new Uint16Array((1 << 12) * F);
  length = 0;

  push(id: number, tfs: readonly number[]): void {
    if (this.length === this.terms.length) {
      const terms = new Uint32Array(this.terms.length * 2);
      terms.set(this.terms);
      this.terms = terms;
      const counts = new Uint16Array(this.counts.length * 2);
      counts.set(this.counts);
      this.counts = counts;
    }
    this.terms[this.length] = id;
    for (let f = 0; f < F; f++) this.counts[this.length * F + f] = Math.min(tfs[f], 0xffff);
    this.length++;
  }

  /** Places postings [from, to) of note `doc` at their term's next free slot; returns `to`. */
  layOut(from: number, to: number, doc: number, fill: Uint32Array, postDocs: Uint32Array, postTfs: Uint16Array): number {
    for (let p = from; p < to; p++) {
      const at = fill[this.terms[p]]++;
      postDocs[at] = doc;
      for (let f = 0; f < F; f++) postTfs[at * F + f] = this.counts[p * F + f];
    }
    return to;
  }
}
