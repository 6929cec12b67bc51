import type { Progress } from '@modelcontextprotocol/sdk/types.js';

/** At most this many progress notifications a second per call reach the client. */
export const PROGRESS_MIN_INTERVAL_MS = 100;

/**
 * Passes an upstream call's progress on to the gateway's client, throttled: an upstream flooding
 * progress notifications costs the client at most one every `minIntervalMs` (the latest wins),
 * and a slow client never builds a backlog (a notification is dropped while the previous is still
 * being sent). `end` stops it when the call settles: no progress may follow the result.
 */
export function progressRelay(send: (progress: Progress) => Promise<void>, minIntervalMs = PROGRESS_MIN_INTERVAL_MS): { onprogress(progress: Progress): void; end(): void } {
  let last = -Infinity;
  let sending = false;
  let ended = false;
  let pending: Progress | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (ended || !pending) return;
    if (sending) {
      timer = setTimeout(flush, minIntervalMs);
      return;
    }
    const next = pending;
    pending = undefined;
    last = Date.now();
    sending = true;
    send(next)
      .catch(() => {})
      .finally(() => (sending = false));
  };
  return {
    onprogress(progress) {
      if (ended) return;
      pending = progress;
      const wait = last + minIntervalMs - Date.now();
      if (wait <= 0 && !sending) flush();
      else timer ??= setTimeout(flush, Math.max(wait, 0));
    },
    end() {
      ended = true;
      clearTimeout(timer);
    },
  };
}
