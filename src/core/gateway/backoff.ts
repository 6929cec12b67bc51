/** Reconnect timing; tests shorten it, production uses the defaults (1 s doubling to 30 s). */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Fraction of the delay added or removed at random, so many upstreams don't retry in lockstep. */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000, jitter: 0.2 };

/** Delay before retry number `attempt` (0-based): initial · 2^attempt, capped, with jitter. */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const base = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt, 30));
  const spread = base * options.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(Math.min(options.maxMs, base + spread)));
}
