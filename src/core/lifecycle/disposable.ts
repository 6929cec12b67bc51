/**
 * The one disposable shape of Hearth, shaped like the editor's so the VS Code host can hand core
 * objects straight to `context.subscriptions`. `dispose` may return a promise: owners of processes,
 * files or sockets end asynchronously, and whoever owns them (a `DisposableStore`, `deactivate()`)
 * awaits it. Calling `dispose` twice must be harmless.
 */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** Wraps a cleanup function as a Disposable that runs it at most once. */
export function toDisposable(cleanup: () => void | Promise<void>): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      return cleanup();
    },
  };
}
