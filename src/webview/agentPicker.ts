/**
 * The agent picker (`lazy_agent_selection`, `:agent`): internal agents as cards, external (ACP)
 * agents in a list, each unavailable one disabled with the reason a user can act on.
 */
import type { AgentDescriptor } from '../core/agents/agentSession';
import { el } from './turnView';

export function renderAgentPicker(doc: Document, agents: AgentDescriptor[], active: string | undefined, onPick: (name: string) => void, onClose: () => void): HTMLElement {
  const picker = el(doc, 'section', 'agent-picker');
  picker.setAttribute('aria-label', 'Choose an agent');
  const head = el(doc, 'div', 'picker-head');
  head.append(el(doc, 'h2', '', 'Choose an agent'));
  const close = el(doc, 'button', 'icon close', '✕') as HTMLButtonElement;
  close.type = 'button';
  close.title = 'Close (the default agent is used)';
  close.addEventListener('click', onClose);
  head.append(close);
  picker.append(head);
  if (agents.length === 0) picker.append(el(doc, 'p', 'muted', 'No agents found. The default agent answers your first message.'));
  for (const [kind, title] of [['internal', 'Internal agents'], ['external', 'External agents (ACP)']] as const) {
    const group = agents.filter((a) => a.kind === kind);
    if (group.length === 0) continue;
    picker.append(el(doc, 'h3', '', title));
    const list = el(doc, 'div', `agent-list ${kind}`);
    for (const agent of group) {
      const card = el(doc, 'button', `agent-card${agent.name === active ? ' active' : ''}${agent.available ? '' : ' unavailable'}`) as HTMLButtonElement;
      card.type = 'button';
      card.dataset.agent = agent.name;
      card.disabled = !agent.available;
      card.append(el(doc, 'span', 'agent-name', agent.name));
      if (agent.description) card.append(el(doc, 'span', 'agent-description', agent.description));
      if (!agent.available) card.append(el(doc, 'span', 'agent-reason', `Unavailable: ${agent.unavailableReason ?? 'unknown reason'}`));
      card.addEventListener('click', () => onPick(agent.name));
      list.append(card);
    }
    picker.append(list);
  }
  return picker;
}
