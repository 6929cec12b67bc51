/**
 * The status bar item for the chat's active agent (part of the Hearth cluster). It names the agent,
 * and an external agent's own model while its session runs; a click focuses the chat and opens the
 * agent picker, or, while an external agent offers models, a quick pick of its models (and another
 * agent) — the status bar switches the agent's model as `:model` does.
 */
import * as vscode from 'vscode';
import { optionFor, type AgentControlsView } from '../../core/agents/agentControls';

export const AGENT_STATUS_ITEM_ID = 'hearth.agentStatus';
export const PICK_AGENT_COMMAND_ID = 'hearth.pickAgent';

/** The model option of an external agent's controls, when it offers a choice of models. */
export function agentModelOption(controls: AgentControlsView | undefined): Extract<AgentControlsView['options'][number], { type: 'select' }> | undefined {
  const option = controls ? optionFor(controls, 'model') : undefined;
  return option?.type === 'select' && option.choices.length > 0 ? option : undefined;
}

export class AgentStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(AGENT_STATUS_ITEM_ID, vscode.StatusBarAlignment.Right, 99);

  constructor() {
    this.item.name = 'Hearth Agent';
    this.item.command = PICK_AGENT_COMMAND_ID;
    this.update(undefined);
    this.item.show();
  }

  update(agent: string | undefined, controls?: AgentControlsView): void {
    const model = agentModelOption(controls);
    const modelName = model ? (model.choices.find((c) => c.value === model.value)?.name ?? model.value) : undefined;
    // "no agent" read as something broken; the chat header says the same thing as an action.
    this.item.text = `$(hubot) ${agent ?? 'Choose agent…'}${modelName ? ` · ${modelName}` : ''}`;
    this.item.tooltip = agent
      ? `Hearth chat agent: ${agent}${modelName ? `, its model ${modelName}\nClick to choose another model or agent` : '\nClick to choose another'}`
      : 'Hearth chat: no agent chosen yet (the default answers first)\nClick to choose';
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** The agent item's click while an external agent offers models: one of them (its value), `agents` for the picker, or undefined. */
export async function pickAgentModel(agent: string, controls: AgentControlsView | undefined): Promise<string | 'agents' | undefined> {
  const model = agentModelOption(controls);
  if (!model) return 'agents';
  type Item = vscode.QuickPickItem & { value: string };
  const items: Item[] = [
    ...model.choices.map((c) => ({ label: c.name, value: c.value, ...(c.description ? { detail: c.description } : {}), ...(c.value === model.value ? { description: 'current' } : {}) })),
    { label: '', kind: vscode.QuickPickItemKind.Separator, value: '' },
    { label: '$(hubot) Choose another agent…', value: 'agents' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: `${agent}: model`, placeHolder: `The model ${agent} uses in this conversation` });
  return picked?.value;
}
