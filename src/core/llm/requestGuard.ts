/**
 * Wraps one provider request with the user's `timeout_secs` and the caller's abort signal, and maps
 * whatever the SDK throws to an LlmError. The timeout is an idle timeout: it restarts with every
 * streamed event, so a slow local model that keeps producing tokens is not cut off mid-answer,
 * while a backend that stops answering is aborted (and the error says so).
 */
import { toLlmError, type ClassifyContext } from './errors';
import type { ChatEvent, ProviderSettings } from './types';

export function timeoutMs(settings: ProviderSettings): number {
  return settings.timeoutMs ?? settings.timeoutSecs * 1000;
}

/**
 * Listing models and reading metadata are quick on any healthy backend; waiting the full chat
 * timeout (120 s by default) would freeze the model picker behind one dead provider.
 */
export const LIST_TIMEOUT_CAP_MS = 15_000;

export class RequestGuard {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timedOut = false;
  private readonly onOuterAbort = () => this.controller.abort(this.outer?.reason);

  private readonly limitMs: number;

  constructor(
    private readonly settings: ProviderSettings,
    private readonly outer?: AbortSignal,
    operation: 'chat' | 'list' = 'chat',
  ) {
    this.limitMs = operation === 'list' ? Math.min(timeoutMs(settings), LIST_TIMEOUT_CAP_MS) : timeoutMs(settings);
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.touch();
  }

  /** Fires on timeout or when the caller aborts; hand it to the SDK. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Restarts the idle timer (call on every streamed part). */
  touch(): void {
    clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error('timeout'));
    }, this.limitMs);
    // A pending timer must not keep the CLI process alive after the answer.
    this.timer.unref?.();
  }

  error(error: unknown, ctx: Omit<ClassifyContext, 'settings' | 'timedOut' | 'cancelled' | 'limitMs'>) {
    return toLlmError(error, { ...ctx, settings: this.settings, limitMs: this.limitMs, timedOut: this.timedOut, cancelled: !this.timedOut && (this.outer?.aborted ?? false) });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
    // Stops the underlying HTTP stream when the consumer leaves the loop early.
    if (!this.controller.signal.aborted) this.controller.abort(new Error('done'));
  }
}

/** Runs a one-shot request (model listing, metadata) under a guard. */
export async function guarded<T>(
  settings: ProviderSettings,
  outer: AbortSignal | undefined,
  ctx: Omit<ClassifyContext, 'settings' | 'timedOut' | 'cancelled'>,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const guard = new RequestGuard(settings, outer, ctx.operation);
  try {
    return await work(guard.signal);
  } catch (error) {
    throw guard.error(error, ctx);
  } finally {
    guard.dispose();
  }
}

/**
 * Streams events from `produce`, resetting the idle timer per event and mapping errors. `produce`
 * receives the guard's signal and may yield several events per wire part.
 */
export async function* guardedStream(
  settings: ProviderSettings,
  outer: AbortSignal | undefined,
  ctx: Omit<ClassifyContext, 'settings' | 'timedOut' | 'cancelled'>,
  produce: (signal: AbortSignal, guard: RequestGuard) => AsyncIterable<ChatEvent>,
): AsyncGenerator<ChatEvent> {
  const guard = new RequestGuard(settings, outer);
  try {
    for await (const event of produce(guard.signal, guard)) {
      // The openai and cloud_b SDKs end an aborted stream quietly instead of throwing; without this
      // check a timed-out or cancelled answer would look complete.
      if (guard.signal.aborted) break;
      guard.touch();
      yield event;
    }
    if (guard.signal.aborted) throw guard.signal.reason ?? new Error('aborted');
  } catch (error) {
    throw guard.error(error, ctx);
  } finally {
    guard.dispose();
  }
}
