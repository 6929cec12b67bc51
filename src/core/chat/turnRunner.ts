/**
 * One chat turn from the message to its last event: the prompt is built (attachments within the
 * model's budget, auto context from the kiln, a recap for an external agent's fresh session), the
 * agent session runs it and every event is redacted, given its editor remedy, kept in the turn and
 * streamed to the panel; the turn ends with a `done`, its final status and its sources. The
 * controller owns what surrounds a turn (the running slot, saving the conversation).
 */
import type { AgentEvent, AgentSession, AgentSessionHost, AgentStartOptions, PromptAttachment } from '../agents/agentSession';
import { describeError, errorCode } from '../errors';
import type { Logger } from '../host';
import type { Redactor } from '../logging/redactor';
import type { AgentSessionSlot } from './agents/agentSessionSlot';
import type { ChatModels } from './chatCommands';
import { appendEvent, finalStatus, historyMessages, RECAP_PATH, recapTurns, type AttachmentRef, type Turn } from './conversation/conversation';
import { attachmentBudget, readAttachments, type PendingAttachment } from './context/pendingAttachments';
import type { AutoContext } from './context/autoContext';
import { editorRemedy } from './editorRemedies';
import { UNANSWERED_CODES } from './unansweredChoices';
import type { PermissionPrompts } from './agents/permissionPrompts';
import { SourceList } from './context/sources';
import type { HostMessage } from './protocol';

/** What a turn needs from its panel (a subset of the controller's dependencies). */
export interface TurnRunnerDeps {
  /** Already redacted by the controller. */
  post(message: HostMessage): void;
  models: ChatModels;
  notes: { read(ref: AttachmentRef, budget?: number): Promise<string> };
  settings(): { autoContext?: boolean };
  autoContext?(text: string, signal: AbortSignal, attached?: readonly string[]): Promise<AutoContext>;
  signIn?: AgentSessionHost['signIn'];
  cwd(): string;
  kilnRoot?(): string | undefined;
  redactor?: Redactor;
}

/** The panel's side of a turn: its agent, the turn a permission prompt belongs to, a notice. */
export interface TurnPanel {
  /** The conversation's agent, picked (the catalog's default) when none was yet. */
  agent(): Promise<string>;
  /** The turn running when a permission is asked: the session outlives the turn that started it. */
  runningTurnId(): string | undefined;
  notice(level: 'info' | 'error', text: string): void;
  /** External agents: the agent session to continue and the remembered choices for a new session of `agent`. */
  sessionOptions?(agent: string): { resume?: string; preferences?: Record<string, string | boolean> };
  /** A new session started; true when the agent already has the earlier turns (resumed or loaded). */
  sessionOpened?(session: AgentSession): boolean;
}

export class TurnRunner {
  /** "No kiln context" is said once per panel. */
  private contextNoticeShown = false;

  constructor(
    private readonly deps: TurnRunnerDeps,
    private readonly agentSession: AgentSessionSlot,
    private readonly permissions: PermissionPrompts,
    private readonly panel: TurnPanel,
    private readonly log: Logger,
  ) {}

  /** Runs `turn` after the `earlier` turns of its conversation; never throws (errors become events). */
  async run(turn: Turn, attachments: PendingAttachment[], earlier: Turn[], abort: AbortController): Promise<void> {
    const seen: AgentEvent[] = [];
    let contextRefs: AttachmentRef[] = [];
    let unanswered = false;
    const emit = (raw: AgentEvent) => {
      const redacted = this.deps.redactor?.redactDeep(raw) ?? raw;
      // One remedy per error box, in the editor's words (commands, not CLI).
      const remedy = redacted.type === 'error' ? editorRemedy(redacted.code, this.deps.models.waitingForTrust?.()) : undefined;
      const event: AgentEvent = remedy && redacted.type === 'error' ? { ...redacted, remedy } : redacted;
      if (event.type === 'error' && UNANSWERED_CODES.has(event.code)) unanswered = true;
      seen.push(event);
      appendEvent(turn.events, event);
      this.deps.post({ type: 'event', turnId: turn.id, event });
    };
    try {
      const contextTokens = attachments.length > 0 ? await this.deps.models.contextTokens?.().catch(() => undefined) : undefined;
      const prompts = await readAttachments(attachments, (ref, budget) => this.deps.notes.read(ref, budget), attachmentBudget(contextTokens));
      const context = await this.kilnContext(turn.text, abort.signal, attachments.map((a) => a.ref.path));
      prompts.push(...context);
      contextRefs = context.map((a) => ({ path: a.path, ...(a.startLine ? { startLine: a.startLine } : {}), ...(a.endLine ? { endLine: a.endLine } : {}) }));
      const agent = await this.panel.agent();
      const { session, fresh } = await this.agentSession.ensure(agent, () => this.startOptions(agent, turn.id, earlier), this.deps.models.currentId());
      // A new session has not seen the earlier turns: internal agents got them as chat history at
      // start; an external agent cannot be given history, so it gets a recap with this prompt.
      // A resumed or loaded agent session has them already.
      const continued = fresh ? this.panel.sessionOpened?.(session) === true : false;
      if (fresh && !continued && earlier.length > 0 && session.agent.kind !== 'internal') prompts.unshift({ path: RECAP_PATH, text: recapTurns(earlier) });
      for await (const event of session.prompt(turn.text, prompts, abort.signal)) {
        if (event.type === 'done' && abort.signal.aborted) break;
        emit(event);
      }
    } catch (error) {
      if (!abort.signal.aborted) {
        // The agent may be gone (crashed, bad key at start): a retry starts a fresh session.
        await this.agentSession.end();
        const remedy = (error as { remedy?: unknown }).remedy;
        emit({ type: 'error', code: errorCode(error, 'chat.unexpected'), message: describeError(error), ...(typeof remedy === 'string' ? { remedy } : {}) });
      }
    }
    if (abort.signal.aborted) emit({ type: 'done', stopReason: 'cancelled' });
    else if (!turn.events.some((e) => e.type === 'done')) emit({ type: 'done', stopReason: turn.events.some((e) => e.type === 'error') ? 'error' : 'end_turn' });
    turn.status = finalStatus(turn.events);
    // Not awaited: looking at what this machine has (other providers' lists) must not hold the turn open.
    if (unanswered && !abort.signal.aborted) void this.offerChoices(turn.id);
    // Sources from the unclipped events: a long search result is cut in the stored turn.
    const sources = new SourceList();
    sources.addAttachments(turn.attachments);
    sources.addAttachments(contextRefs, 'auto_context');
    sources.addToolCalls(seen);
    if (sources.sources.length > 0) {
      turn.sources = sources.sources;
      this.deps.post({ type: 'sources', turnId: turn.id, sources: turn.sources });
    } else delete turn.sources;
  }

  /** The provider did not answer: the error box gets the choices that fit this machine (not saved with the turn). */
  private async offerChoices(turnId: string): Promise<void> {
    try {
      const choices = (await this.deps.models.unanswered?.()) ?? [];
      if (choices.length > 0) this.deps.post({ type: 'choices', turnId, choices });
    } catch (error) {
      this.log.warn(`could not work out what to offer for the provider that did not answer: ${describeError(error)}`);
    }
  }

  /** Starts the conversation's session now, without a turn (an agent's saved session opened from the history shows its replay at once). */
  async open(agent: string): Promise<void> {
    const { session, fresh } = await this.agentSession.ensure(agent, () => this.startOptions(agent, undefined, []), this.deps.models.currentId());
    if (fresh) this.panel.sessionOpened?.(session);
  }

  private startOptions(agent: string, turnId: string | undefined, earlier: Turn[]): AgentStartOptions {
    return {
      ...this.panel.sessionOptions?.(agent),
      // The session outlives this turn: a prompt belongs to the turn running when it is asked.
      host: {
        requestPermission: (request, signal) => this.permissions.ask(this.panel.runningTurnId() ?? turnId ?? 'session', request, signal),
        ...(this.deps.signIn ? { signIn: this.deps.signIn } : {}),
      },
      cwd: this.deps.cwd(),
      ...(this.deps.kilnRoot?.() ? { kilnRoot: this.deps.kilnRoot() } : {}),
      ...(earlier.length > 0 ? { history: historyMessages(earlier) } : {}),
    };
  }

  /**
   * Auto context for one message; never fails the turn. When there is nothing to search (no index
   * yet, or it is being built), the panel says so once and the turn goes on without.
   */
  private async kilnContext(text: string, signal: AbortSignal, attached: readonly string[]): Promise<PromptAttachment[]> {
    if (!this.deps.autoContext || this.deps.settings().autoContext === false) return [];
    try {
      const context = await this.deps.autoContext(text, signal, attached);
      if (context.skipped && !this.contextNoticeShown) {
        this.contextNoticeShown = true;
        this.panel.notice('info', `Answering without kiln context: ${context.skipped}.`);
      }
      if (context.refused) this.panel.notice('info', `Left out of the kiln context: ${context.refused.join(', ')} (a link leading out of the kiln is not read).`);
      return context.attachments;
    } catch (error) {
      this.log.warn(`auto context failed: ${describeError(error)}`);
      return [];
    }
  }
}
