import type { Disposable } from './disposable';

/** Subscribes a listener; `dispose()` on the result unsubscribes (the editor's Event shape). */
export type Event<T> = (listener: (value: T) => void) => Disposable;

export interface EmitterOptions {
  /** Told about a listener that threw (the other listeners still run); without it the error is dropped. */
  onListenerError?(error: unknown): void;
}

/**
 * The core's one event idiom, editor-free, following VS Code's
 * (`private readonly _onDidChange = new Emitter<X>(); readonly onDidChange = this._onDidChange.event`),
 * so the editor host can pass core events straight to its own APIs.
 *
 * The rules `fire` keeps, so an owner can fire from anywhere without being hurt by its listeners:
 * - a listener that throws does not stop the others nor reach the owner (it goes to `onListenerError`);
 * - a listener added while firing first hears the next event;
 * - a listener removed while firing (or by `dispose()` during a fire) is not called again, not even
 *   for the event being fired.
 */
export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(value: T) => void>();
  private disposed = false;

  constructor(private readonly options: EmitterOptions = {}) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose() {} };
    // A wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    return { dispose: () => void this.listeners.delete(entry) };
  };

  /** True while anyone listens (an owner may skip work nobody would hear). */
  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      if (!this.listeners.has(listener)) continue;
      try {
        listener(value);
      } catch (error) {
        this.options.onListenerError?.(error);
      }
    }
  }

  /** Drops every listener; later subscriptions are ignored and `fire` does nothing. */
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}
