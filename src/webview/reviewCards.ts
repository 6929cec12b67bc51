/**
 * Agent edits waiting for review, above the composer: one compact card per file (its diff as
 * text, coloured by line, never rendered as markup) with Accept, Reject and Open Diff; and the
 * newest applied agent turn with Undo. Decisions go to the host, which owns the review.
 */
import type { ChatReviewsView } from '../core/chat/reviews/chatReviews';
import type { WebviewMessage } from '../core/chat/protocol';
import { el } from './turnView';

const VERB = { create: 'create', update: 'change', delete: 'delete' } as const;
const MAX_DIFF_LINES = 40;

export class ReviewCards {
  readonly element: HTMLElement;

  constructor(
    private readonly doc: Document,
    private readonly post: (message: WebviewMessage) => void,
  ) {
    this.element = el(doc, 'section', 'reviews');
    this.element.setAttribute('aria-label', 'Agent changes');
    this.element.hidden = true;
  }

  render(view: ChatReviewsView): void {
    const { doc } = this;
    const children: HTMLElement[] = [];
    for (const card of view.cards) {
      const box = el(doc, 'div', 'review-card');
      box.dataset.reviewId = card.id;
      box.append(el(doc, 'div', 'review-title', `${card.who} wants to ${VERB[card.kind]} ${card.path}`));
      const diff = el(doc, 'pre', 'review-diff');
      const lines = card.diff.split('\n').filter((line) => !line.startsWith('---') && !line.startsWith('+++'));
      for (const line of lines.slice(0, MAX_DIFF_LINES)) {
        const kind = line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : line.startsWith('@@') ? 'hunk' : 'context';
        diff.append(el(doc, 'span', `diff-line ${kind}`, `${line}\n`));
      }
      if (lines.length > MAX_DIFF_LINES) diff.append(el(doc, 'span', 'diff-line hunk', `… ${lines.length - MAX_DIFF_LINES} more lines: Open Diff\n`));
      const actions = el(doc, 'div', 'review-actions');
      actions.append(
        this.button('Accept', 'accept primary', `Apply this change to ${card.path}`, () => this.post({ type: 'review', id: card.id, decision: 'accept' })),
        this.button('Reject', 'reject', `Keep ${card.path} as it is; the agent is told`, () => this.post({ type: 'review', id: card.id, decision: 'reject' })),
        this.button('Open Diff', 'open', 'Show the change in the diff editor', () => this.post({ type: 'review', id: card.id, decision: 'open' })),
      );
      box.append(diff, actions);
      children.push(box);
    }
    if (view.undoable && view.cards.length === 0) {
      const last = el(doc, 'div', 'review-undo');
      last.append(
        el(doc, 'span', 'review-undo-text', `${view.undoable.who} changed ${view.undoable.paths.join(', ')}`),
        this.button('Undo', 'undo', 'Restore what was there before (Hearth: Undo Last Agent Change)', () => this.post({ type: 'undoLastChange' })),
      );
      children.push(last);
    }
    this.element.replaceChildren(...children);
    this.element.hidden = children.length === 0;
    this.element.querySelector('.review-card')?.scrollIntoView?.({ block: 'nearest' });
  }

  private button(text: string, className: string, title: string, onClick: () => void): HTMLButtonElement {
    const button = el(this.doc, 'button', className, text) as HTMLButtonElement;
    button.type = 'button';
    button.title = title;
    button.addEventListener('click', onClick);
    return button;
  }
}
