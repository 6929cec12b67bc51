/**
 * `[chat].review_edits` in the `hearth` command: an agent's change is printed as a unified diff on
 * stderr and accepted or rejected on the terminal. `--yes` accepts; without a terminal (and without
 * `--yes`) the change is rejected, never applied unseen. A rejection may carry a reason for the agent.
 */
import { unifiedDiff } from '../core/changes/changeDiff';
import type { ChangeProposal, ChangeReviewer, ReviewOutcome } from '../core/changes/changeReview';
import type { Redactor } from '../core/logging/redactingLogger';
import { readLine } from './cliHost';

export interface TerminalReviewOptions {
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  yes: boolean;
  redactor?: Redactor;
  /** Whether a person can answer; default: stdin and stderr are terminals. */
  interactive?: boolean;
}

const isTty = (stream: unknown) => (stream as { isTTY?: boolean }).isTTY === true;

export function terminalReviewer(options: TerminalReviewOptions): ChangeReviewer {
  const redact = (text: string) => options.redactor?.redact(text) ?? text;
  return {
    async review(proposal: ChangeProposal, signal?: AbortSignal): Promise<ReviewOutcome> {
      const who = proposal.actor.agent ?? proposal.actor.client ?? 'an agent';
      options.stderr.write(`\n${who} wants to ${proposal.kind} ${proposal.path} (${proposal.actor.tool}):\n${redact(unifiedDiff(proposal.path, proposal.before, proposal.after))}`);
      if (options.yes) {
        options.stderr.write('hearth: accepted (--yes)\n');
        return { accepted: true };
      }
      if (!(options.interactive ?? (isTty(options.stdin) && isTty(options.stderr)))) {
        options.stderr.write('hearth: rejected: no terminal to ask; pass --yes to accept agent edits without asking.\n');
        return { accepted: false, reason: 'nobody could review it (no terminal); the user can pass --yes' };
      }
      options.stderr.write('Apply this change? [y/N, or a reason to reject] ');
      const answer = await Promise.race([readLine(options.stdin), new Promise<undefined>((done) => signal?.addEventListener('abort', () => done(undefined), { once: true }))]);
      if (answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)) return { accepted: true };
      const reason = answer?.trim() && !/^\s*n(o)?\s*$/i.test(answer) ? answer.trim() : undefined;
      return { accepted: false, reason };
    },
  };
}
