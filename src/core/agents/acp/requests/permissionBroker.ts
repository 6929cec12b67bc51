import type { Logger } from '../../../host';
import type { AgentSessionHost, PermissionOption, PermissionOutcome, PermissionRequest } from '../../agentSession';

export interface PermissionDecision {
  outcome: PermissionOutcome;
  /** True only when an option of kind allow_once/allow_always was chosen (by the user or remembered). */
  allowed: boolean;
}

/**
 * Puts an agent's permission requests to the user with the agent's own options and answers with
 * the option the user chose, never another: an unknown option id, a closed prompt, a time-out
 * (the signal) or a host failure is `cancelled`, which ACP agents treat as a reject. An
 * "always" answer (allow or reject) is remembered for the session, per tool kind and title, and
 * answered with the agent's matching option without asking again.
 */
export class PermissionBroker {
  private readonly remembered = new Map<string, 'allow' | 'reject'>();

  constructor(
    private readonly host: AgentSessionHost,
    private readonly log: Logger,
  ) {}

  async decide(key: string, request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const options = request.options.filter(isValidOption);
    const memory = this.remembered.get(key);
    if (memory) {
      const option = pick(options, memory === 'allow' ? ['allow_always', 'allow_once'] : ['reject_always', 'reject_once']);
      if (option) {
        this.log.debug(`permission "${request.title}" answered from the session's "always ${memory}"`);
        return { outcome: { outcome: 'selected', optionId: option.optionId }, allowed: memory === 'allow' };
      }
    }
    if (signal.aborted) return cancelled();
    let outcome: PermissionOutcome;
    try {
      outcome = await Promise.race([this.host.requestPermission({ ...request, options }, signal), aborted(signal)]);
    } catch (error) {
      this.log.warn(`permission prompt failed, answering as rejected: ${(error as Error)?.message ?? String(error)}`);
      return cancelled();
    }
    if (signal.aborted || outcome?.outcome !== 'selected') return cancelled();
    const chosen = options.find((option) => option.optionId === outcome.optionId);
    if (!chosen) {
      this.log.warn(`the answer "${String(outcome.optionId)}" is not one of the agent's options; answering as rejected`);
      return cancelled();
    }
    if (chosen.kind === 'allow_always') this.remembered.set(key, 'allow');
    if (chosen.kind === 'reject_always') this.remembered.set(key, 'reject');
    return { outcome: { outcome: 'selected', optionId: chosen.optionId }, allowed: chosen.kind === 'allow_once' || chosen.kind === 'allow_always' };
  }
}

const KINDS = new Set(['allow_once', 'allow_always', 'reject_once', 'reject_always']);

function isValidOption(option: PermissionOption): boolean {
  return typeof option?.optionId === 'string' && typeof option.name === 'string' && KINDS.has(option.kind);
}

function pick(options: PermissionOption[], kinds: PermissionOption['kind'][]): PermissionOption | undefined {
  for (const kind of kinds) {
    const found = options.find((option) => option.kind === kind);
    if (found) return found;
  }
  return undefined;
}

function cancelled(): PermissionDecision {
  return { outcome: { outcome: 'cancelled' }, allowed: false };
}

function aborted(signal: AbortSignal): Promise<PermissionOutcome> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve({ outcome: 'cancelled' });
    else signal.addEventListener('abort', () => resolve({ outcome: 'cancelled' }), { once: true });
  });
}
