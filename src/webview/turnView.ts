/**
 * One turn in the conversation: the user's message (with what was attached) and the agent's reply
 * built from its events — text (markdown or plain), thoughts, tool calls (collapsed, with arguments
 * and result), the plan, inline permission prompts, errors with their remedy and a retry button.
 * Live turns and restored ones go through the same `apply`.
 */
import { renderTerminal } from './terminalBlock';
import type { AgentEvent, ContextUsage, PermissionRequest, ToolCallStatus } from '../core/agents/agentSession';
import { formatAttachment, type FoldedToolCall, type Turn } from '../core/chat/conversation/conversation';
import { formatSource, type Source } from '../core/chat/context/sources';
import type { ProviderChoice } from '../core/chat/unansweredChoices';
import { renderReply } from './markdown';
import { noteLink } from './noteLinks';

export interface TurnViewOptions {
  doc: Document;
  enableMarkdown: boolean;
  /** The kiln's note paths with spaces or parentheses, so a reply citing one links it whole. */
  notePaths?(): readonly string[];
  /** Defers re-rendering of streamed text (a frame in the panel, immediate in tests). */
  schedule(work: () => void): void;
  onRetry(turnId: string): void;
  onPermission(requestId: string, optionId: string | undefined): void;
}

const STATUS_LABELS: Record<ToolCallStatus, string> = { pending: 'pending', in_progress: 'running', completed: 'done', failed: 'failed', denied: 'denied' };

export class TurnView {
  readonly element: HTMLElement;
  private readonly reply: HTMLElement;
  private textBlock: { element: HTMLElement; text: string; dirty: boolean } | undefined;
  private thought: { body: HTMLElement; text: string } | undefined;
  private readonly tools = new Map<string, HTMLElement>();
  private readonly prompts = new Map<string, HTMLElement>();
  private readonly terminals = new Map<string, HTMLElement>();
  private readonly status: HTMLElement;

  constructor(
    private readonly turn: Pick<Turn, 'id' | 'text' | 'attachments'>,
    private readonly options: TurnViewOptions,
  ) {
    const { doc } = options;
    this.element = el(doc, 'div', 'turn');
    this.element.dataset.turnId = turn.id;
    const user = el(doc, 'div', 'message user');
    if (turn.attachments.length > 0) {
      const list = el(doc, 'div', 'attached');
      for (const ref of turn.attachments) list.append(el(doc, 'span', 'chip', `#${formatAttachment(ref)}`));
      user.append(list);
    }
    user.append(el(doc, 'div', 'body plain', turn.text));
    this.reply = el(doc, 'div', 'message agent');
    this.status = el(doc, 'div', 'turn-status');
    this.element.append(user, this.reply, this.status);
  }

  setRunning(running: boolean): void {
    this.element.classList.toggle('running', running);
    this.status.textContent = running ? 'Working…' : (this.status.dataset.usage ?? '');
  }

  apply(event: AgentEvent): void {
    const { doc } = this.options;
    if (event.type !== 'text') this.textBlock = undefined;
    if (event.type !== 'thought') this.thought = undefined;
    switch (event.type) {
      case 'text': {
        if (!this.textBlock) {
          this.textBlock = { element: el(doc, 'div', 'body markdown'), text: '', dirty: false };
          this.reply.append(this.textBlock.element);
        }
        const block = this.textBlock;
        block.text += event.text;
        if (!block.dirty) {
          block.dirty = true;
          this.options.schedule(() => {
            block.dirty = false;
            renderReply(doc, block.element, block.text, this.options.enableMarkdown, this.options.notePaths?.() ?? []);
          });
        }
        return;
      }
      case 'thought': {
        if (!this.thought) {
          const details = el(doc, 'details', 'thought');
          details.append(el(doc, 'summary', '', 'Thinking'));
          const body = el(doc, 'div', 'body plain');
          details.append(body);
          this.reply.append(details);
          this.thought = { body, text: '' };
        }
        this.thought.text += event.text;
        this.thought.body.textContent = this.thought.text;
        return;
      }
      case 'tool_call':
        return this.toolCall(event as FoldedToolCall);
      case 'tool_update': {
        const view = this.tools.get(event.id);
        if (!view) return this.toolCall({ type: 'tool_call', id: event.id, name: event.id, status: event.status, ...(event.result !== undefined ? { result: event.result } : {}), ...(event.isError ? { isError: true } : {}) });
        this.updateTool(view, event.status, event.result, event.isError);
        // The user rejected the edit in review: not a failure of the tool.
        if (event.code === 'changes.rejected') view.querySelector('.tool-status')!.textContent = 'rejected';
        return;
      }
      case 'plan': {
        const existing = this.reply.querySelector(':scope > .plan');
        const plan = el(doc, 'ol', 'plan');
        for (const entry of event.entries) plan.append(el(doc, 'li', `plan-${entry.status}`, `${entry.status === 'completed' ? '✓' : entry.status === 'in_progress' ? '▸' : '○'} ${entry.content}`));
        if (existing) existing.replaceWith(plan);
        else this.reply.append(plan);
        return;
      }
      case 'terminal': {
        const existing = this.terminals.get(event.id);
        const block = renderTerminal(doc, existing, event);
        if (!existing) {
          this.terminals.set(event.id, block);
          this.reply.append(block);
        }
        return;
      }
      case 'usage':
        // Token counts (internal agents) and the context window (ACP agents) can both arrive; keep each.
        if (event.usage) this.status.dataset.tokens = `${event.usage.inputTokens} in · ${event.usage.outputTokens} out`;
        if (event.context) this.status.dataset.context = contextText(event.context);
        this.status.dataset.usage = [this.status.dataset.tokens, this.status.dataset.context].filter(Boolean).join(' · ');
        return;
      case 'error': {
        const box = el(doc, 'div', 'error');
        box.setAttribute('role', 'alert');
        box.append(el(doc, 'div', 'error-message', event.message));
        if (event.remedy) box.append(el(doc, 'div', 'error-remedy', event.remedy));
        const retry = el(doc, 'button', 'retry', 'Retry') as HTMLButtonElement;
        retry.type = 'button';
        retry.addEventListener('click', () => this.options.onRetry(this.turn.id));
        box.append(retry);
        this.reply.append(box);
        return;
      }
      case 'done':
        this.setRunning(false);
        if (event.stopReason === 'cancelled') this.reply.append(el(doc, 'div', 'stopped', 'Stopped.'));
        else if (event.stopReason === 'max_steps' || event.stopReason === 'max_tokens') this.reply.append(el(doc, 'div', 'stopped', event.stopReason === 'max_steps' ? 'Stopped: the agent reached its step limit.' : 'Stopped: the reply reached max_tokens.'));
        else if (event.stopReason === 'refusal') this.reply.append(el(doc, 'div', 'stopped', 'The model refused.'));
        return;
    }
  }

  /**
   * The provider did not answer: what fits this machine, as buttons in the turn's error box (after
   * its remedy). Replaces choices shown before in this turn; the host sends them once per failure.
   */
  showChoices(choices: readonly ProviderChoice[], choose: (id: string) => void): void {
    const { doc } = this.options;
    const box = [...this.reply.querySelectorAll<HTMLElement>(':scope > .error')].at(-1);
    if (!box) return;
    box.querySelector('.error-choices')?.remove();
    const list = el(doc, 'div', 'error-choices');
    list.setAttribute('role', 'group');
    list.setAttribute('aria-label', 'What to do');
    for (const choice of choices) {
      const button = el(doc, 'button', 'choice', choice.label) as HTMLButtonElement;
      button.type = 'button';
      button.dataset.choice = choice.id;
      if (choice.detail) button.title = choice.detail;
      button.addEventListener('click', () => choose(choice.id));
      list.append(button);
    }
    box.insertBefore(list, box.querySelector(':scope > .retry'));
  }

  /** The notes the reply drew on, as `path:line` links under it (replaces an earlier list). */
  setSources(sources: readonly Source[]): void {
    const { doc } = this.options;
    this.element.querySelector(':scope > .sources')?.remove();
    if (sources.length === 0) return;
    const box = el(doc, 'div', 'sources');
    box.append(el(doc, 'div', 'sources-title', 'Sources'));
    const list = el(doc, 'ul', 'sources-list');
    for (const source of sources) {
      const item = el(doc, 'li');
      item.append(noteLink(doc, source.path, source.startLine, formatSource(source)), el(doc, 'span', 'source-via', ` · ${source.via.replace(/_/g, ' ')}`));
      list.append(item);
    }
    box.append(list);
    this.element.insertBefore(box, this.status);
  }

  /** An inline prompt with the agent's own options; answered once, then shown as answered. */
  showPermission(requestId: string, request: PermissionRequest): void {
    const { doc } = this.options;
    this.textBlock = undefined;
    const box = el(doc, 'div', 'permission');
    box.dataset.requestId = requestId;
    box.setAttribute('role', 'group');
    // The agent's title is shown as it wrote it (a question already, or "X wants to overwrite y").
    box.append(el(doc, 'div', 'permission-label', 'Permission needed'), el(doc, 'div', 'permission-title', request.title));
    if (request.detail) box.append(el(doc, 'pre', 'permission-detail', request.detail));
    const buttons = el(doc, 'div', 'permission-options');
    for (const option of request.options) {
      const button = el(doc, 'button', option.kind.startsWith('allow') ? 'allow' : 'reject', option.name) as HTMLButtonElement;
      button.type = 'button';
      button.dataset.optionId = option.optionId;
      button.addEventListener('click', () => {
        for (const b of buttons.querySelectorAll('button')) (b as HTMLButtonElement).disabled = true;
        this.options.onPermission(requestId, option.optionId);
      });
      buttons.append(button);
    }
    box.append(buttons);
    this.prompts.set(requestId, box);
    this.reply.append(box);
    // In a long chat the waiting turn may be off-screen: bring the question into view.
    box.scrollIntoView?.({ block: 'nearest' });
  }

  permissionDone(requestId: string, optionId: string | undefined): void {
    const box = this.prompts.get(requestId);
    if (!box) return;
    const chosen = optionId ? [...box.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.dataset.optionId === optionId)?.textContent : undefined;
    box.querySelector('.permission-options')?.replaceWith(el(this.options.doc, 'div', 'permission-answer', chosen ? `You chose: ${chosen}` : 'Cancelled (treated as a reject).'));
    box.classList.add('answered');
  }

  private toolCall(call: FoldedToolCall): void {
    const { doc } = this.options;
    const details = el(doc, 'details', 'tool');
    const summary = el(doc, 'summary');
    summary.append(el(doc, 'span', 'tool-name', call.title ?? call.name));
    if (call.title && call.title !== call.name) summary.append(el(doc, 'span', 'tool-id muted', call.name));
    summary.append(el(doc, 'span', 'tool-status'));
    details.append(summary);
    if (call.arguments !== undefined) {
      details.append(el(doc, 'div', 'tool-label', 'Arguments'), el(doc, 'pre', 'tool-args', typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments, null, 2)));
    }
    this.tools.set(call.id, details);
    this.reply.append(details);
    this.updateTool(details, call.status, call.result, call.isError);
  }

  private updateTool(view: HTMLElement, status: ToolCallStatus, result: string | undefined, isError: boolean | undefined): void {
    const { doc } = this.options;
    view.dataset.status = status;
    view.querySelector('.tool-status')!.textContent = STATUS_LABELS[status];
    if (result === undefined) return;
    view.querySelector('.tool-result')?.remove();
    view.querySelector('.tool-result-label')?.remove();
    view.append(el(doc, 'div', 'tool-label tool-result-label', isError ? 'Error' : 'Result'), el(doc, 'pre', `tool-result${isError ? ' is-error' : ''}`, result));
  }
}

/** A new element with a class and text (always as text: never parsed). */
/** `context 12.3k / 200k tokens · 0.0123 USD`; the used part is left out when the agent did not know it. */
function contextText(context: ContextUsage): string {
  const tokens = (n: number) => (n >= 1000 ? `${Math.round(n / 100) / 10}k` : String(n));
  const window = context.used !== undefined ? `context ${tokens(context.used)} / ${tokens(context.size)} tokens` : `context window ${tokens(context.size)} tokens`;
  return context.cost ? `${window} · ${context.cost.amount.toFixed(4)} ${context.cost.currency}` : window;
}

export function el(doc: Document, tag: string, className = '', text?: string): HTMLElement {
  const element = doc.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}
