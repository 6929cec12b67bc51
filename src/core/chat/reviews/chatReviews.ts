import type { Event } from '../../lifecycle/emitter';

/**
 * Agent edits waiting for review, as the chat panel shows them: one compact card per file with
 * Accept / Reject / Open diff, and the newest applied agent turn with Undo. The editor's reviewer
 * provides them; the chat only relays decisions (the diff editor stays the full view).
 */
export interface ReviewCard {
  id: string;
  path: string;
  kind: 'create' | 'update' | 'delete';
  /** Who asked: the agent, or an MCP client by name. */
  who: string;
  /** A unified diff, cut to a few KB for the card (the diff editor shows it whole). */
  diff: string;
}

/** The newest applied agent turn, which "Undo" reverts. */
export interface UndoableTurn {
  who: string;
  paths: string[];
}

export interface ChatReviewsView {
  cards: ReviewCard[];
  undoable?: UndoableTurn;
}

/** What the chat needs of the host's review queue and change journal. */
export interface ChatReviews {
  view(): Promise<ChatReviewsView>;
  /** Fires whenever the pending reviews (or the journal) change. */
  onDidChange: Event<void>;
  decide(id: string, accepted: boolean): void;
  open(id: string): void;
  undoLast(): Promise<void>;
}
