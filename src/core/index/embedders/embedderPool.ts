import type { Embedder } from './embedder';

/**
 * Up to `size` embedders of one kind behind one face: each call goes to an idle member, a new
 * member is started only when all are busy (so a search alone never starts more than one), and
 * past `size` the least busy member takes it. Until one call has been answered, the first member
 * takes every call: a model fetched on first use is downloaded and cached once, not once per member. local_cpu uses it for `[processing].parallel_workers`
 * embedding worker threads, each with its own model session.
 */
export class EmbedderPool implements Embedder {
  private readonly members: { embedder: Embedder; busy: number }[] = [];
  private answered = false;

  constructor(
    readonly providerType: string,
    readonly model: string,
    readonly size: number,
    private readonly start: (index: number) => Embedder,
  ) {}

  /** Members started so far. */
  get started(): number {
    return this.members.length;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const member = this.pick();
    member.busy++;
    try {
      const vectors = await member.embedder.embed(texts, signal);
      this.answered = true;
      return vectors;
    } finally {
      member.busy--;
    }
  }

  async dispose(): Promise<void> {
    const members = this.members.splice(0);
    await Promise.all(members.map((m) => m.embedder.dispose?.()));
  }

  private pick(): { embedder: Embedder; busy: number } {
    let best = this.members[0];
    for (const m of this.members) if (m.busy < best.busy) best = m;
    if (!best || (this.answered && best.busy > 0 && this.members.length < this.size)) {
      best = { embedder: this.start(this.members.length), busy: 0 };
      this.members.push(best);
    }
    return best;
  }
}
