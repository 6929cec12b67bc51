/**
 * A command an agent runs through Hearth's terminal, as a collapsible block in its turn: the
 * command and its state in the summary, the output (its tail, as text) inside. Updated in place as
 * output arrives.
 */
import type { AgentEvent } from '../core/agents/agentSession';

type TerminalEvent = Extract<AgentEvent, { type: 'terminal' }>;

function el(doc: Document, tag: string, className: string, text?: string): HTMLElement {
  const element = doc.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

export function renderTerminal(doc: Document, existing: HTMLElement | undefined, event: TerminalEvent): HTMLElement {
  const block = existing ?? el(doc, 'details', 'terminal');
  block.dataset.terminalId = event.id;
  const state = !event.exit ? 'running…' : event.exit.code === 0 ? 'exit 0' : event.exit.code !== null ? `exit ${event.exit.code}` : `ended by ${event.exit.signal ?? 'a signal'}`;
  block.classList.toggle('failed', event.exit !== undefined && event.exit.code !== 0);
  const summary = el(doc, 'summary', '');
  summary.append(el(doc, 'code', 'terminal-command', `$ ${event.command}`), el(doc, 'span', 'terminal-state', ` — ${state}`));
  const output = el(doc, 'pre', 'terminal-output', `${event.truncated ? '…\n' : ''}${event.output}`);
  block.replaceChildren(summary, output);
  return block;
}
