/**
 * The streaming time-out of one turn: it fires when the agent has sent nothing for `idleMs`, except
 * while the user is being asked something (a permission prompt, an overwrite confirmation), since
 * the agent is then rightly silent; it starts afresh once the last answer is in.
 */
export class StreamingWatchdog {
  private timer: NodeJS.Timeout | undefined;
  /** Prompts the user has open: while any is, the time-out does not run. */
  private waitingForUser = 0;
  /** Called when the time runs out; set once the turn waits on the agent. */
  onTimeout: (() => void) | undefined;

  constructor(private readonly idleMs: number) {}

  /** The agent showed activity: the time-out starts again (unless the user is being asked). */
  touch(): void {
    clearTimeout(this.timer);
    if (this.waitingForUser > 0) return;
    this.timer = setTimeout(() => this.onTimeout?.(), this.idleMs);
    this.timer.unref?.();
  }

  /** Runs `work` (asking the user) with the time-out paused; afterwards it restarts unless `ended()`. */
  async whileWaitingForUser<T>(work: () => Promise<T>, ended: () => boolean): Promise<T> {
    this.waitingForUser++;
    clearTimeout(this.timer);
    try {
      return await work();
    } finally {
      this.waitingForUser--;
      if (!ended()) this.touch();
    }
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
