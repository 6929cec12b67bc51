import * as vscode from 'vscode';
import { unifiedDiff } from '../../core/changes/changeDiff';
import type { ChangeJournal } from '../../core/changes/changeJournal';
import { newestTurn } from '../../core/changes/undoChanges';
import type { ChatReviews, ChatReviewsView } from '../../core/chat/reviews/chatReviews';
import type { EditorReviewer } from './editorReviewer';
import { UNDO_LAST_AGENT_CHANGE_COMMAND } from './undoLastChange';

const MAX_CARD_DIFF = 6_000;

/** The chat panel's view of the editor's pending reviews and the kiln's journal. */
export function chatReviews(reviewer: EditorReviewer, journal: () => ChangeJournal | undefined): ChatReviews {
  return {
    async view(): Promise<ChatReviewsView> {
      const cards = reviewer.pendingProposals().map(({ id, proposal, who }) => {
        const diff = unifiedDiff(proposal.path, proposal.before, proposal.after);
        return { id, path: proposal.path, kind: proposal.kind, who, diff: diff.length > MAX_CARD_DIFF ? `${diff.slice(0, MAX_CARD_DIFF)}\n…` : diff };
      });
      // The journal's lock may be busy with a write: the cards must not wait for the Undo line.
      const records = await Promise.race([journal()?.list().catch(() => []), new Promise<undefined>((done) => setTimeout(done, 2_000))]);
      let undoable: ChatReviewsView['undoable'];
      try {
        const turn = records && records.length > 0 ? newestTurn(records) : undefined;
        if (turn) undoable = { who: turn[0].agent ?? turn[0].client ?? 'an agent', paths: [...new Set(turn.map((record) => record.path))] };
      } catch {
        // Nothing left to undo.
      }
      return { cards, ...(undoable ? { undoable } : {}) };
    },
    onDidChange: (listener) => reviewer.onDidChangePending(listener),
    decide: (id, accepted) => reviewer.decide(id, { accepted }),
    open: (id) => void reviewer.reveal(id),
    // The command tells the reviewer itself once it undid (so does an undo from the palette).
    undoLast: async () => void (await vscode.commands.executeCommand(UNDO_LAST_AGENT_CHANGE_COMMAND)),
  };
}
