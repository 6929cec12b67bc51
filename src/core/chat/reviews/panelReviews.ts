/**
 * The review cards in the chat panel: the reviewer's view is posted whenever the reviews change, a
 * turn ends or a surface opens, and the panel's decisions go back to the reviewer. Absent reviews:
 * no cards, and decisions are dropped.
 */
import { describeError } from '../../errors';
import type { Logger } from '../../host';
import type { Disposable } from '../../lifecycle/disposable';
import type { ChatReviews } from './chatReviews';
import type { HostMessage, WebviewMessage } from '../protocol';

export type ReviewRequest = Extract<WebviewMessage, { type: 'review' | 'undoLastChange' }>;

export class PanelReviews {
  private ticket = 0;
  private readonly subscription: Disposable | undefined;

  constructor(
    private readonly reviews: ChatReviews | undefined,
    private readonly post: (message: HostMessage) => void,
    private readonly log: Logger,
  ) {
    this.subscription = reviews?.onDidChange(() => void this.show());
  }

  /** Posts the current view (to every surface, or to `post` alone: a surface that opens). */
  async show(post = this.post): Promise<void> {
    if (!this.reviews) return;
    // Views are built asynchronously (the journal is read): only the newest one may be shown.
    const ticket = ++this.ticket;
    try {
      const view = await this.reviews.view();
      if (ticket === this.ticket) post({ type: 'reviews', view });
    } catch (error) {
      this.log.warn(`could not list the pending agent changes: ${describeError(error)}`);
    }
  }

  async answer(request: ReviewRequest): Promise<void> {
    if (request.type === 'undoLastChange') return this.reviews?.undoLast();
    if (request.decision === 'open') return this.reviews?.open(request.id);
    return this.reviews?.decide(request.id, request.decision === 'accept');
  }

  async dispose(): Promise<void> {
    await this.subscription?.dispose();
  }
}
