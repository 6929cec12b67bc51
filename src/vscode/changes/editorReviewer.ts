/**
 * `[chat].review_edits` in the editor: an agent's change to a note opens VS Code's diff editor
 * (what is there ↔ what the agent proposes) with Accept and Reject on its title bar; several pending
 * changes of one turn open together in the multi-file changes view. A notification names the agent
 * until the turn's changes are decided (reviewNotice.ts; its Cancel rejects them). The tool call waits for the decision; the agent
 * is told the outcome (a rejection with the user's optional reason).
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChangeProposal, ChangeReviewer, ReviewOutcome } from '../../core/changes/changeReview';
import type { Logger } from '../../core/host';
import { CHANGE_SCHEME, type ChangeSnapshots } from './changeSnapshots';
import { showReviewNotice, whenNoneWaiting } from './reviewNotice';
export const ACCEPT_CHANGE_COMMAND = 'hearth.acceptChange';
export const REJECT_CHANGE_COMMAND = 'hearth.rejectChange';
export const ACCEPT_ALL_CHANGES_COMMAND = 'hearth.acceptAllChanges';
export const REJECT_ALL_CHANGES_COMMAND = 'hearth.rejectAllChanges';

interface Pending {
  id: string;
  proposal: ChangeProposal;
  before: vscode.Uri;
  after: vscode.Uri;
  resolve(outcome: ReviewOutcome): void;
}

export class EditorReviewer implements ChangeReviewer, vscode.Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly _onDidChangePending = new vscode.EventEmitter<void>();
  /** Fires when a change starts or stops waiting (the chat's review cards follow it). */
  readonly onDidChangePending = this._onDidChangePending.event;
  /** Per turn: the changes that arrive together (one step's writes) are shown together, once. */
  private readonly showTimers = new Map<string, NodeJS.Timeout>();
  /** Turns whose review notice is open. */
  private readonly noticed = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly snapshots: ChangeSnapshots,
    private readonly kilnRoot: () => string | undefined,
    private readonly log: Logger,
  ) {
    this.disposables.push(
      this._onDidChangePending,
      vscode.commands.registerCommand(ACCEPT_CHANGE_COMMAND, (uri?: vscode.Uri) => this.decideActive(uri, { accepted: true })),
      vscode.commands.registerCommand(REJECT_CHANGE_COMMAND, async (uri?: vscode.Uri) => {
        const reason = await vscode.window.showInputBox({ title: 'Reject the change', prompt: 'Why? (optional — the agent is told, so it can adapt)', ignoreFocusOut: true });
        this.decideActive(uri, { accepted: false, reason: reason?.trim() || undefined });
      }),
      vscode.commands.registerCommand(ACCEPT_ALL_CHANGES_COMMAND, (turn?: string) => this.decideTurn(turn, { accepted: true })),
      vscode.commands.registerCommand(REJECT_ALL_CHANGES_COMMAND, (turn?: string) => this.decideTurn(turn, { accepted: false })),
    );
  }

  review(proposal: ChangeProposal, signal?: AbortSignal): Promise<ReviewOutcome> {
    if (signal?.aborted) return Promise.resolve({ accepted: false, reason: 'the turn was cancelled' });
    const id = randomUUID();
    return new Promise<ReviewOutcome>((resolve) => {
      const entry: Pending = {
        id,
        proposal,
        before: this.snapshots.put(proposal.path, proposal.before),
        after: this.snapshots.put(proposal.path, proposal.after),
        resolve: (outcome) => {
          if (!this.pending.delete(id)) return;
          this._onDidChangePending.fire();
          signal?.removeEventListener('abort', onAbort);
          this.log.child('changes').info(`${outcome.accepted ? 'accepted' : 'rejected'}: ${proposal.kind} ${proposal.path} by ${this.who(proposal)}`);
          void this.closeDiff(entry).finally(() => this.snapshots.drop(entry.before, entry.after));
          resolve(outcome);
        },
      };
      const onAbort = () => entry.resolve({ accepted: false, reason: 'the turn was cancelled' });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, entry);
      this._onDidChangePending.fire();
      this.scheduleShow(proposal.actor.turn);
    });
  }

  /** The changes waiting for a decision, oldest first (the chat's review cards). */
  pendingProposals(): { id: string; proposal: ChangeProposal; who: string }[] {
    return [...this.pending.values()].map((entry) => ({ id: entry.id, proposal: entry.proposal, who: this.who(entry.proposal) }));
  }

  /** Decides one pending change by id (the chat's card buttons); an unknown id is ignored. */
  decide(id: string, outcome: ReviewOutcome): void {
    this.pending.get(id)?.resolve(outcome);
  }

  /** Shows one pending change's diff again (the chat's Open Diff). */
  async reveal(id: string): Promise<void> {
    const entry = this.pending.get(id);
    if (entry) await this.show([entry]);
  }

  /** Something outside the queue changed what the chat shows (an undo): tell the listeners. */
  notifyChanged(): void {
    this._onDidChangePending.fire();
  }

  private who(proposal: ChangeProposal): string {
    const { agent, client } = proposal.actor;
    return agent && client ? `${agent} (via ${client})` : (agent ?? client ?? 'an agent');
  }

  private scheduleShow(turnId: string): void {
    if (this.showTimers.has(turnId)) return;
    this.showTimers.set(
      turnId,
      setTimeout(() => {
        this.showTimers.delete(turnId);
        const turn = [...this.pending.values()].filter((entry) => entry.proposal.actor.turn === turnId);
        if (turn.length === 0) return;
        void this.show(turn).catch((error: unknown) => {
          this.log.child('changes').warn(`could not open the review: ${(error as Error).message}`);
          for (const entry of turn) entry.resolve({ accepted: false, reason: 'the review could not be shown' });
        });
      }, 100),
    );
  }

  private async show(turn: Pending[]): Promise<void> {
    const [entry] = turn;
    const { proposal } = entry;
    const verb = proposal.kind === 'create' ? 'create' : proposal.kind === 'delete' ? 'delete' : 'change';
    if (turn.length > 1) {
      const resources = turn.map((other) => [this.fileUri(other.proposal.path) ?? other.after, other.before, other.after]);
      await vscode.commands.executeCommand('vscode.changes', `Review: ${turn.length} changes by ${this.who(proposal)}`, resources);
    } else {
      await vscode.commands.executeCommand('vscode.diff', entry.before, entry.after, `${proposal.path} — ${verb} by ${this.who(proposal)} (review)`, { preview: false });
    }
    // Not awaited: the notice lives until the turn's changes are decided, wherever that happens;
    // one per turn (Open Diff from the chat shows the diff again, not a second notice).
    const turnId = proposal.actor.turn;
    if (this.noticed.has(turnId)) return;
    this.noticed.add(turnId);
    const waiting = () => [...this.pending.values()].some((other) => other.proposal.actor.turn === turnId);
    void showReviewNotice((options, task) => vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, ...options }, task), {
      title: `${this.who(proposal)} wants to ${verb} ${turn.length > 1 ? `${turn.length} notes` : proposal.path}`,
      decided: whenNoneWaiting(waiting, (listener) => this._onDidChangePending.event(listener)),
      rejectRemaining: () => this.decideTurn(turnId, { accepted: false, reason: 'the user cancelled the review' }),
    }).then(() => this.noticed.delete(turnId));
  }

  private fileUri(path: string): vscode.Uri | undefined {
    const root = this.kilnRoot();
    return root ? vscode.Uri.joinPath(vscode.Uri.file(root), path) : undefined;
  }

  /** The title-bar buttons pass the diff's right-hand resource; the palette falls back to the active editor. */
  private decideActive(uri: vscode.Uri | undefined, outcome: ReviewOutcome): void {
    const target = uri?.scheme === CHANGE_SCHEME ? uri : vscode.window.activeTextEditor?.document.uri;
    const shows = (entry: { after: vscode.Uri; before: vscode.Uri }) => entry.after.toString() === target!.toString() || entry.before.toString() === target!.toString();
    const shown = target?.scheme === CHANGE_SCHEME ? [...this.pending.values()].find(shows) : undefined;
    const entry = shown ?? (this.pending.size === 1 ? [...this.pending.values()][0] : undefined);
    if (!entry) {
      void vscode.window.showInformationMessage('No agent change is waiting for review here.');
      return;
    }
    entry.resolve(outcome);
  }

  private decideTurn(turn: string | undefined, outcome: ReviewOutcome): void {
    const entries = [...this.pending.values()].filter((entry) => turn === undefined || entry.proposal.actor.turn === turn);
    for (const entry of entries) entry.resolve(outcome);
  }

  private async closeDiff(entry: Pending): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => {
      const input = tab.input;
      return input instanceof vscode.TabInputTextDiff && (input.modified.toString() === entry.after.toString() || input.original.toString() === entry.before.toString());
    });
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
  }

  dispose(): void {
    this.showTimers.forEach((timer) => clearTimeout(timer));
    for (const entry of [...this.pending.values()]) entry.resolve({ accepted: false, reason: 'the editor is closing' });
    this.disposables.forEach((disposable) => disposable.dispose());
  }
}
