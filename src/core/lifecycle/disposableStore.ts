import { describeError } from '../errors';
import type { Logger } from '../host';
import type { Disposable } from './disposable';

/**
 * Owns disposables and ends them together: the one shutdown contract of Hearth. `dispose()` ends the
 * members in reverse order of adding (what was built last, and may use what came before, goes first),
 * awaiting each one that returns a promise before the next. It never rejects: a member that throws or
 * rejects is logged and the rest still end. Disposing twice returns the same promise; a member added
 * after disposal began is disposed at once, so nothing escapes a store that is shutting down.
 */
export class DisposableStore implements Disposable {
  private readonly members: Disposable[] = [];
  private ending: Promise<void> | undefined;

  /** `log` hears about members that failed to end. */
  constructor(private readonly log?: Pick<Logger, 'warn'>) {}

  get isDisposed(): boolean {
    return this.ending !== undefined;
  }

  /** Adds a member and returns it (so `const x = store.add(new X())` reads naturally). */
  add<T extends Disposable>(member: T): T {
    if (this.ending) void this.end(member);
    else this.members.push(member);
    return member;
  }

  /** Forgets a member without disposing it (its owner ended it some other way). */
  delete(member: Disposable): void {
    const at = this.members.indexOf(member);
    if (at >= 0) this.members.splice(at, 1);
  }

  dispose(): Promise<void> {
    this.ending ??= this.endAll();
    return this.ending;
  }

  private async endAll(): Promise<void> {
    while (this.members.length > 0) await this.end(this.members.pop()!);
  }

  private async end(member: Disposable): Promise<void> {
    try {
      await member.dispose();
    } catch (error) {
      this.log?.warn(`disposing failed: ${describeError(error)}`);
    }
  }
}
