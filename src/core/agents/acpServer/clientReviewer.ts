/**
 * The write review of `hearth acp`: every change to a note is asked of the ACP client that runs the
 * turn (`session/request_permission`, naming the path), and refused outright in the `ask` mode. The
 * kiln tools share one reviewer, so the turn's session is found through the async context it runs in.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChangeProposal, ChangeReviewer, ReviewOutcome } from '../../changes/changeReview';

export interface ReviewingTurn {
  /** `ask`: read-only, every write refused; `edit`: each write asked. */
  mode(): 'ask' | 'edit';
  ask(proposal: ChangeProposal, signal?: AbortSignal): Promise<boolean>;
}

export class ClientReviewer implements ChangeReviewer {
  private readonly turns = new AsyncLocalStorage<ReviewingTurn>();

  /** Runs `work` (a turn) with its writes reviewed by `turn`. */
  run<T>(turn: ReviewingTurn, work: () => T): T {
    return this.turns.run(turn, work);
  }

  async review(proposal: ChangeProposal, signal?: AbortSignal): Promise<ReviewOutcome> {
    const turn = this.turns.getStore();
    if (!turn) return { accepted: false, reason: 'no client to ask' };
    if (turn.mode() === 'ask') return { accepted: false, reason: 'the session is in the read-only "ask" mode; switch it to "edit" to change notes' };
    return (await turn.ask(proposal, signal)) ? { accepted: true } : { accepted: false, reason: 'the user declined' };
  }
}
