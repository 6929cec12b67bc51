import type { Progress } from '@modelcontextprotocol/sdk/types.js';

/** Past the burst, at most one progress notification per this interval and call reaches the client. */
export const PROGRESS_MIN_INTERVAL_MS = 100;
/** Notifications that may pass back to back before the interval applies (a tool's few quick steps all arrive). */
export const PROGRESS_BURST = 5;

/**
 * Passes an upstream call's progress on to the gateway's client, throttled as a token bucket: a
 * few quick steps (0, 50, 100 within 100 ms) all arrive, while an upstream flooding progress
 * notifications costs the client at most one every `minIntervalMs` once the burst is spent (the
 * latest wins), and a slow client never builds a backlog (a notification waits while the previous
 * is still being sent). `end` stops it when the call settles: the latest update still waiting is
 * sent, and the promise it returns settles once the last send has been handed to the transport, so
 * the result never overtakes it on the client's stream (no progress may follow the result).
 */
export function progressRelay(
  send: (progress: Progress) => Promise<void>,
  minIntervalMs = PROGRESS_MIN_INTERVAL_MS,
  burst = PROGRESS_BURST,
): { onprogress(progress: Progress): void; end(): Promise<void> } {
  let tokens = burst;
  let refilledAt = Date.now();
  let sending: Promise<void> | undefined;
  let ended = false;
  let pending: Progress | undefined;
  let timer: NodeJS.Timeout | undefined;
  const refill = () => {
    const now = Date.now();
    tokens = Math.min(burst, tokens + (now - refilledAt) / minIntervalMs);
    refilledAt = now;
  };
  const schedule = () => {
    timer ??= setTimeout(flush, Math.max(Math.ceil((1 - tokens) * minIntervalMs), 1));
  };
  const flush = () => {
    timer = undefined;
    if (ended || !pending) return;
    refill();
    // While a send is in flight its end schedules the next; otherwise wait for a token.
    if (sending) return;
    if (tokens < 1) return schedule();
    const next = pending;
    pending = undefined;
    tokens -= 1;
    sending = send(next)
      .catch(() => {})
      .finally(() => {
        sending = undefined;
        if (pending && !ended) schedule();
      });
  };
  return {
    onprogress(progress) {
      if (ended) return;
      pending = progress;
      if (!timer) flush();
    },
    async end() {
      ended = true;
      clearTimeout(timer);
      await sending;
      const last = pending;
      pending = undefined;
      if (last) await send(last).catch(() => {});
    },
  };
}
