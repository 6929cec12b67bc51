/**
 * The active external agent's options as header pickers: a select per choice option (mode, model,
 * reasoning level, others), a checkbox per switch. A change is only asked for: the picker moves when
 * the host reports the agent's new state, so it always shows what the agent has.
 */
import type { AgentOptionView } from '../core/agents/agentControls';
import { el } from './turnView';

export function renderAgentOptions(doc: Document, options: AgentOptionView[], onChange: (id: string, value: string | boolean) => void): HTMLElement[] {
  return options.map((option) => {
    const label = el(doc, 'label', `agent-option agent-option-${option.category}`);
    label.title = option.description ? `${option.name}: ${option.description}` : option.name;
    label.dataset.optionId = option.id;
    if (option.type === 'boolean') {
      const box = doc.createElement('input');
      box.type = 'checkbox';
      box.checked = option.value;
      box.setAttribute('aria-label', option.name);
      box.addEventListener('change', () => onChange(option.id, box.checked));
      label.append(box, el(doc, 'span', '', option.name));
      return label;
    }
    const select = doc.createElement('select');
    select.setAttribute('aria-label', option.name);
    for (const choice of option.choices) {
      const item = doc.createElement('option');
      item.value = choice.value;
      item.textContent = choice.name;
      if (choice.description) item.title = choice.description;
      item.selected = choice.value === option.value;
      select.append(item);
    }
    select.addEventListener('change', () => onChange(option.id, select.value));
    label.append(select);
    return label;
  });
}
