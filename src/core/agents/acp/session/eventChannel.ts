/**
 * A one-reader queue between callbacks (session updates, permission prompts, process exit) and the
 * async iterator a surface consumes. Events pushed after `end` are dropped: a late update from an
 * agent that ignored a cancel must not leak into the next turn.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;

  get isEnded(): boolean {
    return this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value, done: false });
    } else {
      this.queue.push(value);
    }
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.queue.length) {
        yield this.queue.shift()!;
        continue;
      }
      if (this.ended) return;
      const next = await new Promise<IteratorResult<T>>((resolve) => (this.waiting = resolve));
      if (next.done) return;
      yield next.value;
    }
  }
}
