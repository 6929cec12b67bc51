/**
 * The status bar item for the chat's active agent (part of the Hearth cluster). A click focuses
 * the chat and opens the agent picker.
 */
import * as vscode from 'vscode';

export const AGENT_STATUS_ITEM_ID = 'hearth.agentStatus';
export const PICK_AGENT_COMMAND_ID = 'hearth.pickAgent';

export class AgentStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(AGENT_STATUS_ITEM_ID, vscode.StatusBarAlignment.Right, 99);

  constructor() {
    this.item.name = 'Hearth Agent';
    this.item.command = PICK_AGENT_COMMAND_ID;
    this.update(undefined);
    this.item.show();
  }

  update(agent: string | undefined): void {
    // "no agent" read as something broken; the chat header says the same thing as an action.
    this.item.text = `$(hubot) ${agent ?? 'Choose agent…'}`;
    this.item.tooltip = agent ? `Hearth chat agent: ${agent}\nClick to choose another` : 'Hearth chat: no agent chosen yet (the default answers first)\nClick to choose';
  }

  dispose(): void {
    this.item.dispose();
  }
}
