/**
 * The turn a chat panel is running, at most one at a time. Stopping it aborts the agent's request
 * and rejects open permission prompts, then waits until the turn has ended and been saved.
 */
import type { Turn } from './conversation/conversation';
import type { PermissionPrompts } from './agents/permissionPrompts';

export class RunningTurn {
  private current: { turn: Turn; abort: AbortController; done: Promise<void> } | undefined;

  constructor(private readonly permissions: PermissionPrompts) {}

  get busy(): boolean {
    return this.current !== undefined;
  }

  get turnId(): string | undefined {
    return this.current?.turn.id;
  }

  /** Runs `turn`: `body` while it counts as running, then `settle` (the end said, the save) before a `stop` returns. */
  async run(turn: Turn, body: (abort: AbortController) => Promise<void>, settle: () => Promise<void>): Promise<void> {
    const abort = new AbortController();
    let finish!: () => void;
    this.current = { turn, abort, done: new Promise<void>((resolve) => (finish = resolve)) };
    await body(abort);
    this.current = undefined;
    await settle();
    finish();
  }

  async stop(): Promise<void> {
    const running = this.current;
    if (!running) return;
    running.abort.abort();
    this.permissions.cancelAll();
    await running.done;
  }
}
