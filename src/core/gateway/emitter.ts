/** The editor's disposable shape, without depending on the editor. */
export interface Disposable {
  dispose(): void;
}

/** Subscribes a listener; call `dispose()` on the result to unsubscribe (VS Code's Event shape). */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/**
 * A minimal editor-free event emitter following VS Code's idiom
 * (`private readonly _onDidChange = new Emitter<X>(); readonly onDidChange = this._onDidChange.event`),
 * so the editor host can hand core events straight to its own APIs.
 */
export class Emitter<T> {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // One faulty listener must not stop the others (or the emitter's owner).
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
