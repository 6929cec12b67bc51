/**
 * A saved conversation: each turn keeps the user's text, what was attached, and the agent's events
 * as they streamed (text chunks coalesced). The webview renders live turns and restored ones from
 * the same events, so a reloaded conversation looks exactly like the one that was watched.
 *
 * Free of `vscode`, DOM and Node APIs: bundled into the webview too.
 */
import type { AgentEvent, HistoryMessage } from '../../agents/agentSession';
import type { Source } from '../context/sources';

/** A note (or a part of one) attached to a message; the text itself is read by the host at send. */
export interface AttachmentRef {
  path: string;
  startLine?: number;
  endLine?: number;
}

export type TurnStatus = 'running' | 'done' | 'cancelled' | 'error';

export interface Turn {
  id: string;
  text: string;
  attachments: AttachmentRef[];
  events: AgentEvent[];
  status: TurnStatus;
  /** The notes the reply drew on (attachments, auto context, kiln tools); absent when none. */
  sources?: Source[];
}

export interface Conversation {
  id: string;
  title: string;
  agent?: string;
  /** The external agent's own session this conversation continues (resumed after a reload). */
  agentSession?: { agent: string; id: string };
  createdAt: number;
  updatedAt: number;
  turns: Turn[];
}

export interface ConversationSummary {
  id: string;
  title: string;
  agent?: string;
  updatedAt: number;
  turns: number;
}

/** Tool results are kept in history only up to this size (a 5 MB file read must not bloat storage). */
export const MAX_STORED_RESULT_CHARS = 20_000;

const TITLE_CHARS = 60;

export function newConversation(id: string, now: number, agent?: string): Conversation {
  return { id, title: 'New chat', ...(agent ? { agent } : {}), createdAt: now, updatedAt: now, turns: [] };
}

/** The first line of the first message, shortened: what the history list shows. */
export function titleFor(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (!line) return 'New chat';
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

export function summarize(conversation: Conversation): ConversationSummary {
  return {
    id: conversation.id,
    title: conversation.title,
    ...(conversation.agent ? { agent: conversation.agent } : {}),
    updatedAt: conversation.updatedAt,
    turns: conversation.turns.length,
  };
}

/**
 * Appends one event to a turn's list: consecutive text (or thought) chunks merge into one entry,
 * a tool update is folded into its call's entry, so a stored turn stays small.
 */
export function appendEvent(events: AgentEvent[], event: AgentEvent): void {
  const last = events[events.length - 1];
  if ((event.type === 'text' || event.type === 'thought') && last?.type === event.type) {
    events[events.length - 1] = { ...last, text: last.text + event.text };
    return;
  }
  // A terminal's view is replaced as its output grows: the stored turn keeps its last state only.
  if (event.type === 'terminal') {
    const index = events.findIndex((e) => e.type === 'terminal' && e.id === event.id);
    if (index >= 0) {
      events[index] = event;
      return;
    }
  }
  if (event.type === 'tool_update') {
    const call = events.find((e) => e.type === 'tool_call' && e.id === event.id);
    if (call && call.type === 'tool_call') {
      const index = events.indexOf(call);
      const result = event.result === undefined ? undefined : clip(event.result);
      events[index] = { ...call, status: event.status, ...(result !== undefined ? { result } : {}), ...(event.isError ? { isError: true } : {}) } as AgentEvent;
      return;
    }
  }
  events.push(event);
}

/** A tool call entry after its updates were folded in (see appendEvent). */
export type FoldedToolCall = Extract<AgentEvent, { type: 'tool_call' }> & { result?: string; isError?: boolean };

function clip(text: string): string {
  return text.length > MAX_STORED_RESULT_CHARS ? `${text.slice(0, MAX_STORED_RESULT_CHARS)}\n… (${text.length - MAX_STORED_RESULT_CHARS} more characters not kept)` : text;
}

/** The status a turn ends with, from its events. */
export function finalStatus(events: readonly AgentEvent[]): TurnStatus {
  const done = [...events].reverse().find((e) => e.type === 'done');
  if (done?.type === 'done') {
    if (done.stopReason === 'cancelled') return 'cancelled';
    if (done.stopReason === 'error') return 'error';
  }
  if (events.some((e) => e.type === 'error')) return 'error';
  return 'done';
}

/** Where a selection sits, for display: `notes/a.md:3-9`. */
export function formatAttachment(ref: AttachmentRef): string {
  if (ref.startLine === undefined) return ref.path;
  return ref.endLine !== undefined && ref.endLine !== ref.startLine ? `${ref.path}:${ref.startLine}-${ref.endLine}` : `${ref.path}:${ref.startLine}`;
}

/** Where the recap of earlier turns is "attached" from (it is not a file). */
export const RECAP_PATH = 'conversation so far';
/** The recap keeps the most recent part of the conversation up to this size. */
export const MAX_RECAP_CHARS = 30_000;

/**
 * The earlier turns as text, for an agent session that did not see them (after a reload, a model
 * switch or a crash): Hearth keeps the transcript, so the conversation survives an agent that
 * forgets it. Tool calls are named, not replayed.
 */
export function recapTurns(turns: readonly Turn[]): string {
  const parts = turns.map((turn) => {
    const reply = turn.events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    const tools = turn.events.flatMap((e) => (e.type === 'tool_call' ? [`${e.name} (${e.status})`] : []));
    return [`User: ${turn.text}`, `Assistant: ${reply || '(no text)'}`, ...(tools.length ? [`(tools used: ${tools.join(', ')})`] : [])].join('\n');
  });
  const text = parts.join('\n\n');
  return text.length > MAX_RECAP_CHARS ? `…\n${text.slice(text.length - MAX_RECAP_CHARS)}` : text;
}

/**
 * The earlier turns as chat history for an internal agent's new session: each turn a user message
 * and the assistant's reply, so the model sees a real conversation rather than a recap. The most
 * recent turns are kept up to MAX_RECAP_CHARS; attachments are named (their text is not repeated)
 * and a reply without text says what happened, since providers refuse empty messages.
 */
export function historyMessages(turns: readonly Turn[]): HistoryMessage[] {
  const pairs = turns.map((turn): [HistoryMessage, HistoryMessage] => {
    const attached = turn.attachments.length ? `\n\n(attached: ${turn.attachments.map(formatAttachment).join(', ')})` : '';
    const reply = turn.events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    const tools = turn.events.flatMap((e) => (e.type === 'tool_call' ? [`${e.name} (${e.status})`] : []));
    const note = tools.length ? `(tools used: ${tools.join(', ')})` : '';
    const fallback = turn.status === 'cancelled' ? '(stopped by the user before answering)' : turn.status === 'error' ? '(the answer failed)' : '(no text)';
    const text = [reply || (note ? '' : fallback), note].filter(Boolean).join('\n\n');
    return [
      { role: 'user', text: `${turn.text}${attached}` },
      { role: 'assistant', text },
    ];
  });
  const kept: [HistoryMessage, HistoryMessage][] = [];
  let size = 0;
  for (const pair of pairs.reverse()) {
    size += pair[0].text.length + pair[1].text.length;
    if (size > MAX_RECAP_CHARS && kept.length > 0) break;
    kept.unshift(pair);
  }
  // Even the last turn alone is bounded (a pasted book must not fill the model's window).
  return kept.flat().map((m) => (m.text.length > MAX_RECAP_CHARS ? { ...m, text: `…${m.text.slice(m.text.length - MAX_RECAP_CHARS)}` } : m));
}
