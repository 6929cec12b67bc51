/**
 * The panel's permission prompts (the ACP client's PermissionBroker decides what to ask and
 * remembers answers; this shows the question): turns an agent's permission request into an inline
 * prompt in the panel and waits for the user's choice. Anything but an explicit choice of one of the agent's own options (the turn stopped, the
 * panel closed, an option id the agent never offered) is `cancelled`, which agents treat as a
 * reject: a reject is never turned into an allow.
 */
import type { PermissionOutcome, PermissionRequest } from '../../agents/agentSession';
import type { HostMessage } from '../protocol';

interface Pending {
  turnId: string;
  request: PermissionRequest;
  resolve(outcome: PermissionOutcome): void;
}

export class PermissionPrompts {
  private readonly pending = new Map<string, Pending>();
  private next = 0;

  constructor(private readonly post: (message: HostMessage) => void) {}

  ask(turnId: string, request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome> {
    if (signal.aborted) return Promise.resolve({ outcome: 'cancelled' });
    const requestId = `perm-${++this.next}`;
    return new Promise<PermissionOutcome>((resolve) => {
      const onAbort = () => this.settle(requestId, undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(requestId, {
        turnId,
        request,
        resolve: (outcome) => {
          signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      });
      this.post({ type: 'permission', requestId, turnId, request });
    });
  }

  /** The user's answer (undefined: dismissed). Unknown request ids are ignored. */
  answer(requestId: string, optionId: string | undefined): void {
    this.settle(requestId, optionId);
  }

  /** Shows every open prompt again (to a surface that joined while they were open). */
  repost(post: (message: HostMessage) => void): void {
    for (const [requestId, { turnId, request }] of this.pending) post({ type: 'permission', requestId, turnId, request });
  }

  /** Every open prompt ends as cancelled (turn stopped, panel gone). */
  cancelAll(): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, undefined);
  }

  get open(): number {
    return this.pending.size;
  }

  private settle(requestId: string, optionId: string | undefined): void {
    const entry = this.pending.get(requestId);
    if (!entry) return;
    this.pending.delete(requestId);
    const offered = optionId !== undefined && entry.request.options.some((o) => o.optionId === optionId);
    entry.resolve(offered ? { outcome: 'selected', optionId: optionId! } : { outcome: 'cancelled' });
    this.post({ type: 'permissionDone', requestId, ...(offered ? { optionId } : {}) });
  }
}
