/** The saved conversations of this workspace: open one, or delete it (the host confirms). */
import type { AgentSessionInfo } from '../core/agents/agentControls';
import type { ConversationSummary } from '../core/chat/conversation/conversation';
import { el } from './turnView';

export function renderHistory(doc: Document, items: ConversationSummary[], currentId: string, onOpen: (id: string) => void, onDelete: (id: string) => void): HTMLElement {
  const section = el(doc, 'section', 'history');
  section.setAttribute('aria-label', 'Conversations');
  section.append(el(doc, 'h2', '', 'Conversations'));
  if (items.length === 0) section.append(el(doc, 'p', 'muted', 'No saved conversations yet.'));
  const list = el(doc, 'ul', 'history-list');
  for (const item of items) {
    const row = el(doc, 'li', item.id === currentId ? 'current' : '');
    row.dataset.conversationId = item.id;
    const open = el(doc, 'button', 'history-open') as HTMLButtonElement;
    open.type = 'button';
    // Date first: two conversations that began with the same words still read differently.
    open.title = `${item.title} — ${new Date(item.updatedAt).toLocaleString()}`;
    open.append(el(doc, 'span', 'history-date', `${shortDate(item.updatedAt)} · `), el(doc, 'span', 'history-title', item.title), el(doc, 'span', 'muted', ` · ${item.agent ? `${item.agent} · ` : ''}${item.turns} message${item.turns === 1 ? '' : 's'}`));
    open.addEventListener('click', () => onOpen(item.id));
    const remove = el(doc, 'button', 'icon history-delete', '✕') as HTMLButtonElement;
    remove.type = 'button';
    remove.title = 'Delete this conversation';
    remove.setAttribute('aria-label', `Delete ${item.title}`);
    remove.addEventListener('click', () => onDelete(item.id));
    row.append(open, remove);
    list.append(row);
  }
  section.append(list);
  return section;
}

/** The active external agent's own saved sessions (session/list), beside Hearth's conversations. */
export function renderAgentSessions(
  doc: Document,
  listing: { agent: string; sessions: AgentSessionInfo[]; error?: string },
  currentId: string | undefined,
  onOpen: (sessionId: string, title?: string) => void,
): HTMLElement {
  const section = el(doc, 'section', 'history agent-sessions');
  section.setAttribute('aria-label', `${listing.agent}'s sessions`);
  section.append(el(doc, 'h2', '', `${listing.agent}'s own sessions`));
  if (listing.error) section.append(el(doc, 'p', 'muted', listing.error));
  else if (listing.sessions.length === 0) section.append(el(doc, 'p', 'muted', 'None saved in this folder.'));
  const list = el(doc, 'ul', 'history-list');
  for (const session of listing.sessions) {
    const row = el(doc, 'li', session.sessionId === currentId ? 'current' : '');
    row.dataset.sessionId = session.sessionId;
    const open = el(doc, 'button', 'history-open') as HTMLButtonElement;
    open.type = 'button';
    const title = session.title || session.sessionId;
    open.title = `${title}${session.updatedAt ? ` — ${new Date(session.updatedAt).toLocaleString()}` : ''}`;
    open.append(...(session.updatedAt ? [el(doc, 'span', 'history-date', `${shortDate(Date.parse(session.updatedAt))} · `)] : []), el(doc, 'span', 'history-title', title));
    open.addEventListener('click', () => onOpen(session.sessionId, session.title));
    row.append(open);
    list.append(row);
  }
  section.append(list);
  return section;
}

/** `Nov 24, 14:05`: short enough for a side bar, enough to tell conversations apart. */
function shortDate(ms: number): string {
  const date = new Date(ms);
  return `${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}, ${date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}`;
}
