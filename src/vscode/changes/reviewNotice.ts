/**
 * The notification that announces an agent's pending changes (issue 29): it lives exactly as long
 * as the changes wait. A plain message cannot be closed by the extension, so once the change was
 * decided elsewhere (the diff's title bar, the chat's card, the palette) it stayed, with Accept All
 * and Reject All buttons that then did nothing. This one is a progress notification: it closes
 * itself when the last change of the turn is decided, and its Cancel rejects what still waits.
 *
 * Free of `vscode` (the host passes `window.withProgress`), so it is unit-tested.
 */

/** The part of a CancellationToken this needs. */
export interface NoticeToken {
  isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/** `vscode.window.withProgress` at ProgressLocation.Notification. */
export type NotificationProgress = (
  options: { title: string; cancellable: boolean },
  task: (progress: { report(value: { message?: string }): void }, token: NoticeToken) => Thenable<void>,
) => Thenable<void>;

export interface ReviewNoticeOptions {
  /** e.g. "kiln wants to change tomatoes.md". */
  title: string;
  /** Resolves when none of the turn's changes waits any more, however they were decided. */
  decided: Promise<void>;
  /** The notification's Cancel: reject what still waits. */
  rejectRemaining(): void;
}

export const REVIEW_NOTICE_HINT = 'Accept or Reject in the diff\'s title bar or the chat; Cancel rejects.';

/** Shows the notice; the returned promise settles when it has closed. */
export function showReviewNotice(progress: NotificationProgress, options: ReviewNoticeOptions): Thenable<void> {
  return progress({ title: options.title, cancellable: true }, (report, token) => {
    report.report({ message: REVIEW_NOTICE_HINT });
    return new Promise<void>((done) => {
      const cancel = token.onCancellationRequested(() => {
        options.rejectRemaining();
        done();
      });
      void options.decided.then(() => {
        cancel.dispose();
        done();
      });
    });
  });
}

/**
 * Resolves once `waiting()` is false, checked now and at each `onChange`; the listener is removed
 * then. `onChange` is the reviewer's "pending changed" event.
 */
export function whenNoneWaiting(waiting: () => boolean, onChange: (listener: () => void) => { dispose(): unknown }): Promise<void> {
  if (!waiting()) return Promise.resolve();
  return new Promise<void>((done) => {
    const subscription = onChange(() => {
      if (waiting()) return;
      subscription.dispose();
      done();
    });
  });
}
